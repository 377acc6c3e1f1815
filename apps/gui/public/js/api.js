// The JSON API. The token travels in an HttpOnly cookie the server set, so nothing here handles it.

async function parse(response) {
  const text = await response.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    const message = body && typeof body.error === 'string' ? body.error : `HTTP ${response.status}`;
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return body;
}

export async function getJson(path) {
  return parse(await fetch(path, { headers: { accept: 'application/json' }, credentials: 'same-origin' }));
}

export async function postJson(path, body = {}) {
  return parse(
    await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(body),
    }),
  );
}

export const runPath = (id, ...rest) => `/api/runs/${encodeURIComponent(id)}${rest.length ? `/${rest.join('/')}` : ''}`;
