import { useEffect } from 'preact/hooks';

/** The performance mark a screen sets once it is drawn with its data (bench/view-bench.ts reads it). */
export const readyMark = 'calltape-ready';

/**
 * Once `ready`, after the next frame (the screen drawn with its data), marks the time
 * (`performance.mark('calltape-ready')`, from navigation start) and sets `data-ready` on the
 * document to the address shown, so a benchmark or a test can wait for that very screen.
 */
export function useReadyMark(ready: boolean): void {
  useEffect(() => {
    if (!ready) return;
    const frame = requestAnimationFrame(() => {
      const shown = location.hash || '#/runs';
      performance.mark(readyMark, { detail: shown });
      document.documentElement.dataset['ready'] = shown;
    });
    return () => cancelAnimationFrame(frame);
  }, [ready]);
}
