/** `$XDG_<KIND>_HOME/crucibleforge`, else `~/.<config|cache>/crucibleforge`; undefined without a home (POSIX paths; the environment is passed in). */
export function userDir(env: Record<string, string | undefined>, kind: 'CONFIG' | 'CACHE'): string | undefined {
  const join = (dir: string, name: string) => `${dir.replace(/\/+$/, '')}/${name}`;
  const base = env[`XDG_${kind}_HOME`] || (env['HOME'] ? join(env['HOME'], `.${kind.toLowerCase()}`) : undefined);
  return base ? join(base, 'crucibleforge') : undefined;
}
