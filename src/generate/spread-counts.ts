/**
 * `total` spread over `slots` as evenly as whole numbers allow, earlier slots taking the
 * remainder: 5 over 3 → [2, 2, 1]. Slots beyond `total` get 0, so few cases use few topics.
 */
export function spreadCounts(total: number, slots: number): number[] {
  if (slots <= 0) return [];
  const base = Math.floor(total / slots);
  const extra = total % slots;
  return Array.from({ length: slots }, (_, index) => base + (index < extra ? 1 : 0));
}
