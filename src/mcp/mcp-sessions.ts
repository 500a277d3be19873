/**
 * Values per MCP session of a server (a responder, what a resumed stream still owes), least
 * recently used first out: a long-running proxy sees sessions come and go without a DELETE,
 * so what it remembers is bounded.
 */
export class McpSessions<T> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly max = 1000) {}

  get(server: string, session: string): T | undefined {
    const key = keyOf(server, session);
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(server: string, session: string, value: T): void {
    const key = keyOf(server, session);
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max)
      this.entries.delete(this.entries.keys().next().value as string);
  }

  delete(server: string, session: string): boolean {
    return this.entries.delete(keyOf(server, session));
  }
}

function keyOf(server: string, session: string): string {
  return `${server}\n${session}`;
}
