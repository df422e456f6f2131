// A returning, signed-in visitor's first load (issue 15, 'Fast first load'). Built by
// scripts/build-web.mjs into a small classic script (`signed-in-preload-<hash>.js`),
// loaded `defer` before the entry: the entry discovers the shell's and the screen's
// chunks only once it has been downloaded and run. When a stored user exists (SPEC §3's
// internal_user, as web/src/App.tsx decides) this adds `<link rel="modulepreload">` for
// the shell's chunks, on `/` the dashboard's, and on a wide screen the sidebar's, so they
// download beside the entry. A visitor with no stored user asks for nothing more.

/** The chunk lists, from Vite's manifest (written in by the build). */
declare const SIGNED_IN_PRELOAD_LISTS: { shell: string[]; home: string[]; wide: string[] };

function storedUser(): boolean {
  try {
    const u = JSON.parse(localStorage.getItem('internal_user') || 'null') as { id?: unknown; email?: unknown } | null;
    return u != null && typeof u === 'object' && typeof u.id === 'string' && typeof u.email === 'string';
  } catch {
    return false;
  }
}

if (storedUser()) {
  const lists = SIGNED_IN_PRELOAD_LISTS;
  let want = lists.shell;
  if (location.pathname === '/') want = want.concat(lists.home);
  if (!matchMedia('(max-width: 767px)').matches) want = want.concat(lists.wide);
  const seen = new Set<string>();
  for (const file of want) {
    if (seen.has(file)) continue;
    seen.add(file);
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = `/assets/${file}`;
    document.head.appendChild(link);
  }
}
