import { looseString } from './loose-string.js';

/**
 * `folded === looseString(text)` (with `nfc`: of `text` in NFC) without building the folded copy
 * of `text`: ASCII is folded character by character as it is compared (what the compiled scorer
 * meets on nearly every call); any other character hands the whole text to `looseString`, whose
 * Unicode lower-casing and white space this does not repeat.
 */
export function looseEquals(folded: string, text: string, nfc: boolean): boolean {
  let at = 0;
  for (let index = 0; index < text.length; index++) {
    let code = text.charCodeAt(index);
    if (code > 0x7e) return folded === looseString(nfc ? text.normalize('NFC') : text);
    // Removed by looseString: ASCII white space (\t \n \v \f \r, space) and , . / - _ * ^
    if (
      code === 0x20 ||
      (code >= 0x09 && code <= 0x0d) ||
      code === 0x2c ||
      code === 0x2e ||
      code === 0x2f ||
      code === 0x2d ||
      code === 0x5f ||
      code === 0x2a ||
      code === 0x5e
    )
      continue;
    if (code >= 0x41 && code <= 0x5a) code += 0x20;
    else if (code === 0x27) code = 0x22;
    // NFC may still join this character with a combining mark further on: only ASCII to the end settles it.
    if (folded.charCodeAt(at) !== code)
      return nfc && !asciiFrom(text, index) ? folded === looseString(text.normalize('NFC')) : false;
    at++;
  }
  return at === folded.length;
}

function asciiFrom(text: string, start: number): boolean {
  for (let index = start; index < text.length; index++)
    if (text.charCodeAt(index) > 0x7e) return false;
  return true;
}
