/** A section not filled in yet: its title and a line saying so. */
export function PlaceholderScreen({ title }: { title: string }) {
  return (
    <section>
      <h1>{title}</h1>
      <p class="muted">This section is not available in this build yet.</p>
    </section>
  );
}
