/** What a started sim endpoint tells its user: where it listens, its models, and a curl line that streams a reply. */
export function simBannerLines(url: string, modelIds: readonly string[], apiKey: string | undefined): string[] {
  const body = JSON.stringify({ model: modelIds[0], stream: true, messages: [{ role: 'user', content: 'Hello' }] });
  const auth = apiKey ? ` -H 'authorization: Bearer ${apiKey}'` : '';
  const curl = `curl -sN ${url}/chat/completions -H 'content-type: application/json'${auth} -d '${body}'`;
  return [`sim endpoint listening on ${url}`, `models: ${modelIds.join(', ')}`, `try: ${curl}`];
}
