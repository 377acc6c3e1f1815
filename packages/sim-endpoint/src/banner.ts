/** What a started sim endpoint tells its user: where it listens, its models, and a curl line that streams a reply. */
export function simBannerLines(url: string, modelIds: readonly string[], apiKey: string | undefined): string[] {
  const body = JSON.stringify({ model: modelIds[0], stream: true, messages: [{ role: 'user', content: 'Hello' }] });
  const auth = apiKey ? ` -H 'authorization: Bearer ${apiKey}'` : '';
  const curl = `curl -sN ${url}/chat/completions -H 'content-type: application/json'${auth} -d '${body}'`;
  return [`sim endpoint listening on ${url}`, `models: ${modelIds.join(', ')}`, `try: ${curl}`];
}

/** What a started relay tells its user: the sim's lines for its one model, and where the requests and replies go. */
export function relayBannerLines(url: string, model: string, dir: string): string[] {
  return [
    ...simBannerLines(url, [model], undefined),
    `relay: each chat request is written to ${dir}/req-N/conversation.txt; answer it in ${dir}/req-N/reply.md`,
    '       (CALL <tool_name> <one-line JSON> lines call tools; the log is relay.log)',
  ];
}
