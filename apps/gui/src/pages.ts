/** The page shown to a browser without the token (no script, no data). */
export function unauthorizedPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>CrucibleForge: token required</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font: 16px system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem; color: #1f2933">
<h1 style="font-size: 1.4rem">This CrucibleForge GUI needs its token</h1>
<p>Open the address that <code>crucibleforge gui</code> printed when it started: it ends in <code>?token=…</code>.
The browser then keeps the token in a cookie for this server.</p>
</body></html>
`;
}
