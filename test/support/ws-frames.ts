/**
 * WebSocket frames as bytes (RFC 6455 §5.2), for tests that send what a client library refuses to
 * write — reserved bits, unknown opcodes, unmasked client frames, lying lengths — and read the
 * server's close frame back.
 */

/** A frame to encode; everything a client could get wrong is settable. */
export interface FrameSpec {
  /** FIN bit (default true). */
  readonly fin?: boolean;
  /** RSV1..RSV3 as a 3-bit number (default 0). */
  readonly rsv?: number;
  /** 4-bit opcode: 0 continuation, 1 text, 2 binary, 8 close, 9 ping, 10 pong, others reserved. */
  readonly opcode: number;
  /** Masking key (4 bytes); `null` sends the frame unmasked, which a server must refuse. Default: a fixed key. */
  readonly mask?: Buffer | null;
  readonly payload?: Buffer;
  /** Payload length to declare instead of the real one (a frame that lies about its size). */
  readonly declaredLength?: number | bigint;
}

/** The masking key used when a spec names none. */
const DEFAULT_MASK = Buffer.from([0x12, 0x34, 0x56, 0x78]);

/** Encodes `spec` exactly as given, valid or not. */
export function encodeFrame(spec: FrameSpec): Buffer {
  const payload = spec.payload ?? Buffer.alloc(0);
  const mask = spec.mask === undefined ? DEFAULT_MASK : spec.mask;
  const length = BigInt(spec.declaredLength ?? payload.length);
  const first = ((spec.fin ?? true) ? 0x80 : 0) | (((spec.rsv ?? 0) & 0x07) << 4) | (spec.opcode & 0x0f);
  let header: Buffer;
  if (length < 126n) header = Buffer.from([first, Number(length)]);
  else if (length < 0x10000n) {
    header = Buffer.alloc(4);
    header[0] = first;
    header[1] = 126;
    header.writeUInt16BE(Number(length), 2);
  } else {
    header = Buffer.alloc(10);
    header[0] = first;
    header[1] = 127;
    header.writeBigUInt64BE(length, 2);
  }
  if (mask) header[1] = (header[1] ?? 0) | 0x80;
  const body = mask ? Buffer.from(payload.map((byte, index) => byte ^ (mask[index % 4] ?? 0))) : payload;
  return Buffer.concat([header, mask ?? Buffer.alloc(0), body]);
}

/** A close frame's payload: the code, then the UTF-8 (or not) reason. */
export function closePayload(code: number, reason: Buffer = Buffer.alloc(0)): Buffer {
  const payload = Buffer.alloc(2);
  payload.writeUInt16BE(code);
  return Buffer.concat([payload, reason]);
}

/** A frame as a server sent it (servers never mask). */
interface DecodedFrame {
  readonly fin: boolean;
  readonly opcode: number;
  readonly payload: Buffer;
}

/** Decodes the complete frames at the start of `bytes`; a truncated last frame is left out. */
function decodeFrames(bytes: Buffer): DecodedFrame[] {
  const frames: DecodedFrame[] = [];
  let offset = 0;
  while (offset + 2 <= bytes.length) {
    const first = bytes[offset] ?? 0;
    const second = bytes[offset + 1] ?? 0;
    let length = second & 0x7f;
    let start = offset + 2;
    if (length === 126) {
      if (start + 2 > bytes.length) break;
      length = bytes.readUInt16BE(start);
      start += 2;
    } else if (length === 127) {
      if (start + 8 > bytes.length) break;
      length = Number(bytes.readBigUInt64BE(start));
      start += 8;
    }
    if (second & 0x80) start += 4;
    if (start + length > bytes.length) break;
    frames.push({ fin: (first & 0x80) !== 0, opcode: first & 0x0f, payload: bytes.subarray(start, start + length) });
    offset = start + length;
  }
  return frames;
}

/** The status code of the first close frame in `bytes` (1005 when it carries none), or undefined. */
export function closeCodeIn(bytes: Buffer): number | undefined {
  const close = decodeFrames(bytes).find((frame) => frame.opcode === 0x8);
  if (!close) return undefined;
  return close.payload.length >= 2 ? close.payload.readUInt16BE(0) : 1005;
}
