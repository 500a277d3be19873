import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const tmuxPath = '/usr/bin/tmux';

/** Whether terminal tests can run: CI installs tmux and sets CALLTAPE_REQUIRE_TMUX, so there they are never skipped. */
export const tmuxAvailable = existsSync(tmuxPath) || process.env['CALLTAPE_REQUIRE_TMUX'] === '1';

export const tmux = (...args: string[]): string =>
  execFileSync(tmuxPath, args, { encoding: 'utf8' });

/**
 * Runs a shell command on a real pseudo-terminal: a detached tmux pane of 160×60 named `name`.
 * The pane stays open after the command exits (`sleep`), so its last screen can be read.
 */
export function startPane(name: string, command: string): string {
  tmux('new-session', '-d', '-s', name, '-x', '160', '-y', '60', `${command}; sleep 600`);
  return name;
}

/** The pane's text once it shows `text` (polled: terminal commands redraw as keys arrive). */
export async function screenWith(session: string, text: string): Promise<string> {
  let screen = '';
  for (let attempt = 0; attempt < 400; attempt += 1) {
    screen = tmux('capture-pane', '-p', '-J', '-t', session);
    if (screen.includes(text)) return screen;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the terminal never showed "${text}"; it shows:\n${screen}`);
}
