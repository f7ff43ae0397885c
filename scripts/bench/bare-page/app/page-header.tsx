/** The page's header: its links' texts, as the real page shows them. */
export function PageHeader({ links }: { links: string[] }) {
  return (
    <header>
      <nav>
        {links.map((text) => (
          <a key={text} href="/">
            {text}
          </a>
        ))}
      </nav>
    </header>
  );
}
