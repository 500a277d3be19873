/** The parameters after `?` in the address's hash (`#/rate?runs=a.sqlite&set=golden`). */
export function hashParams(): URLSearchParams {
  const hash = location.hash;
  const mark = hash.indexOf('?');
  return new URLSearchParams(mark === -1 ? '' : hash.slice(mark + 1));
}
