/** The light / dark switch: the saved choice wins over the system's, and is kept in localStorage. */
export function setupTheme(): void {
  const saved = localStorage.getItem('lore-theme');
  if (saved) document.documentElement.dataset.theme = saved;
  document.getElementById('theme')?.addEventListener('click', () => {
    const dark = document.documentElement.dataset.theme
      ? document.documentElement.dataset.theme === 'dark'
      : matchMedia('(prefers-color-scheme: dark)').matches;
    const next = dark ? 'light' : 'dark';
    document.documentElement.dataset.theme = next;
    localStorage.setItem('lore-theme', next);
  });
}
