import type { ChatMessage } from '@crucibleforge/core';
import { judgeLabel } from './comparability';
import { gradedBy } from './failures';
import { modelColour } from './html-charts';
import { html, type SafeHtml } from './html-escape';
import type { FailureEntry, ReportData } from './types';

function messagesBlock(messages: readonly ChatMessage[]): SafeHtml {
  return html`${messages.map(
    (m) => html`<div class="role">${m.role}${m.name ? ` · ${m.name}` : ''}${m.tool_call_id ? ` · ${m.tool_call_id}` : ''}</div>
<pre>${m.content ?? ''}${(m.tool_calls ?? []).map((c) => `\n→ ${c.name}(${c.arguments})`).join('')}</pre>`,
  )}`;
}

function block(title: string, body: SafeHtml | string, cls = ''): SafeHtml {
  return html`<div class="${cls}"><h3>${title}</h3>${typeof body === 'string' ? html`<pre>${body}</pre>` : body}</div>`;
}

const KIND_BADGE: Record<FailureEntry['kind'], SafeHtml | ''> = {
  fail: '',
  error: html`<span class="badge err">error · not scored</span>`,
  'judge-error': html`<span class="badge err">judge error · not scored</span>`,
};

function failureItem(f: FailureEntry, colour: string): SafeHtml {
  const d = f.detail;
  const usage = d.usage ?? { prompt_tokens: null, completion_tokens: null, reasoning_tokens: null };
  const search = `${f.model} ${f.category} ${f.case_id} ${f.title ?? ''} ${f.reason}`.toLowerCase();
  const judge = d.judge
    ? block(
        'Judge',
        html`<div class="kv"><span>verdict <b>${d.judge.verdict}</b></span><span>judge <b title="${d.judge.identity.endpoint}">${judgeLabel(d.judge.identity)}</b></span><span>samples <b>${d.judge.samples}</b></span><span>agreement <b>${Math.round(d.judge.agreement * 100)}%</b></span></div>
${d.judge.note ? html`<pre>${d.judge.note}</pre>` : ''}`,
      )
    : '';
  return html`<details class="failure" data-model="${f.model}" data-category="${f.category}" data-search="${search}">
<summary><span class="chip model" style="--c:${colour}">${f.model}</span><span class="chip">${f.category}</span><span class="case">${f.case_id}</span>${KIND_BADGE[f.kind]}<span class="reason">${f.reason}</span></summary>
<div class="fbody">
<div class="kv"><span>title <b>${f.title ?? '—'}</b></span><span>difficulty <b>${f.difficulty}</b></span><span>revision <b>${f.case_revision}</b></span><span>finish <b>${d.finish_reason ?? '—'}</b></span><span>tokens <b>${usage.prompt_tokens ?? '?'} in / ${usage.completion_tokens ?? '?'} out${usage.reasoning_tokens != null ? ` (${usage.reasoning_tokens} reasoning)` : ''}</b></span><span>run <b>${f.run_id}</b></span><span>graded by <b>${gradedBy(f)}</b></span><span>finished <b>${f.finished_at}</b></span>${d.error_class ? html`<span>error class <b>${d.error_class}</b></span>` : ''}</div>
${block('Grader', d.grade_reason || f.reason, 'grader')}
${judge}
${block('Prompt', messagesBlock(d.messages))}
${block('Response', d.content === '' ? html`<p class="muted">(empty)</p>` : d.content, 'response')}
${d.reasoning !== '' ? block('Reasoning', d.reasoning) : ''}
${d.tool_calls.length > 0 ? block('Tool calls', d.tool_calls.map((c) => `${c.name}(${c.arguments})`).join('\n')) : ''}
${d.transcript !== null && d.transcript.length > 0 ? block('Transcript', messagesBlock(d.transcript)) : ''}
</div>
</details>`;
}

export function failuresPanel(data: ReportData): SafeHtml {
  const colours = new Map(data.models.map((m) => [m.model, modelColour(m.rank - 1)]));
  return html`<section class="panel" id="failures">
<div style="display:flex;gap:10px;align-items:baseline;flex-wrap:wrap"><h2>Failures (${data.failures.length})</h2>
<span class="muted">click a line for the prompt, response, reasoning, tool calls and grader/judge notes</span>
<span style="margin-left:auto"><button type="button" id="expand-all" class="badge">expand all</button> <button type="button" id="collapse-all" class="badge">collapse all</button></span></div>
${data.failures.length === 0 ? html`<p class="muted">No failures.</p>` : data.failures.map((f) => failureItem(f, colours.get(f.model) ?? '#888'))}
</section>`;
}
