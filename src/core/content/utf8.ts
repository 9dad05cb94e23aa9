/**
 * UTF-8 as an event file is measured and checked. `TextDecoder` in fatal mode says only that the bytes are not
 * UTF-8, not where; the scan below finds the first bad byte so that the message can name its offset. It follows
 * the decoder of the WHATWG Encoding Standard (no overlong forms, no surrogates, nothing above U+10FFFF), so it
 * finds a bad byte exactly when `TextDecoder` refuses (a property test holds the two together).
 */

/** The offset of the first byte of the first sequence that is not well-formed UTF-8; undefined if all are. */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number | undefined {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index]!;
    if (lead < 0x80) {
      index += 1;
      continue;
    }
    let continuation: number;
    // The allowed range of the second byte: narrower after E0, ED, F0 and F4, which is what rules out overlong
    // forms, UTF-16 surrogates and code points above U+10FFFF.
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) continuation = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      continuation = 2;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      continuation = 3;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return index;
    for (let position = 1; position <= continuation; position += 1) {
      const byte = bytes[index + position];
      if (byte === undefined || byte < low || byte > high) return index;
      low = 0x80;
      high = 0xbf;
    }
    index += continuation + 1;
  }
  return undefined;
}

/** How many bytes `text` takes in UTF-8 (a lone surrogate as U+FFFD, as `TextEncoder` writes it), without encoding it. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        index += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
