/**
 * A GGUF v3 writer: metadata of every scalar and array type, tensors in F32, F16 or Q8_0. Enough to
 * write a header for a parser test or a whole random-weight model that llama.cpp loads (see
 * `tiny-llama.ts`). Pure: returns bytes.
 */

/** GGUF metadata value types. */
const VT = { u8: 0, i8: 1, u16: 2, i16: 3, u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9, u64: 10, i64: 11, f64: 12 } as const;
type ScalarType = Exclude<keyof typeof VT, 'array'>;

/** A metadata value with an explicit type (plain numbers are written as u32, or f32 when not whole). */
export interface TypedValue {
  readonly gguf: ScalarType;
  readonly value: number | bigint | boolean | string;
}
export interface TypedArray {
  readonly gguf: 'array';
  readonly of: ScalarType;
  readonly values: readonly (number | bigint | boolean | string)[];
}
export type GgufValue = string | number | boolean | TypedValue | TypedArray | readonly string[] | Float32Array | Int32Array;

/** Explicitly typed metadata values: `gguf.u64(n)`, `gguf.f32(x)`, `gguf.array('i32', [...])`. */
export const gguf = {
  u32: (value: number): TypedValue => ({ gguf: 'u32', value }),
  i32: (value: number): TypedValue => ({ gguf: 'i32', value }),
  u64: (value: number | bigint): TypedValue => ({ gguf: 'u64', value }),
  f32: (value: number): TypedValue => ({ gguf: 'f32', value }),
  bool: (value: boolean): TypedValue => ({ gguf: 'bool', value }),
  array: (of: ScalarType, values: readonly (number | bigint | boolean | string)[]): TypedArray => ({ gguf: 'array', of, values }),
};

/** ggml tensor types this writer encodes, with their GGUF numbers. */
export const GGML_TYPES = { F32: 0, F16: 1, Q8_0: 8 } as const;
export type GgmlTypeName = keyof typeof GGML_TYPES;

export interface GgufTensor {
  name: string;
  /** ggml order: the first dimension is the contiguous (row) one. */
  dims: readonly number[];
  type: GgmlTypeName;
  /** Row-major values (dims[0] fastest); omitted → zeros. */
  values?: Float32Array;
}

export interface GgufFile {
  metadata: Record<string, GgufValue>;
  tensors: readonly GgufTensor[];
  /** general.alignment (default 32; written to the metadata when not 32). */
  alignment?: number;
}

const Q8_BLOCK = 32;

/** Bytes a tensor of this type and element count takes. */
export function tensorByteSize(type: GgmlTypeName, elements: number): number {
  if (type === 'F32') return elements * 4;
  if (type === 'F16') return elements * 2;
  return (elements / Q8_BLOCK) * 34;
}

class ByteSink {
  private chunks: Buffer[] = [];
  length = 0;
  push(buffer: Buffer): void {
    this.chunks.push(buffer);
    this.length += buffer.length;
  }
  fixed(size: number, write: (b: Buffer) => void): void {
    const b = Buffer.alloc(size);
    write(b);
    this.push(b);
  }
  u32(n: number): void {
    this.fixed(4, (b) => b.writeUInt32LE(n));
  }
  u64(n: number | bigint): void {
    this.fixed(8, (b) => b.writeBigUInt64LE(BigInt(n)));
  }
  string(s: string): void {
    const bytes = Buffer.from(s, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  scalar(type: ScalarType, value: number | bigint | boolean | string): void {
    const n = Number(value);
    switch (type) {
      case 'u8': return this.fixed(1, (b) => b.writeUInt8(n));
      case 'i8': return this.fixed(1, (b) => b.writeInt8(n));
      case 'u16': return this.fixed(2, (b) => b.writeUInt16LE(n));
      case 'i16': return this.fixed(2, (b) => b.writeInt16LE(n));
      case 'u32': return this.u32(n);
      case 'i32': return this.fixed(4, (b) => b.writeInt32LE(n));
      case 'f32': return this.fixed(4, (b) => b.writeFloatLE(n));
      case 'bool': return this.fixed(1, (b) => b.writeUInt8(value ? 1 : 0));
      case 'string': return this.string(String(value));
      case 'u64': return this.u64(BigInt(value as number | bigint));
      case 'i64': return this.fixed(8, (b) => b.writeBigInt64LE(BigInt(value as number | bigint)));
      case 'f64': return this.fixed(8, (b) => b.writeDoubleLE(n));
    }
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.length);
  }
}

function typed(value: GgufValue): TypedValue | TypedArray {
  if (typeof value === 'string') return { gguf: 'string', value };
  if (typeof value === 'boolean') return { gguf: 'bool', value };
  if (typeof value === 'number') return { gguf: Number.isInteger(value) && value >= 0 ? 'u32' : 'f32', value };
  if (value instanceof Float32Array) return { gguf: 'array', of: 'f32', values: Array.from(value) };
  if (value instanceof Int32Array) return { gguf: 'array', of: 'i32', values: Array.from(value) };
  if (Array.isArray(value)) return { gguf: 'array', of: 'string', values: value as readonly string[] };
  return value as TypedValue | TypedArray;
}

const scratch = new Float32Array(1);
const scratchBits = new Uint32Array(scratch.buffer);

/** IEEE 754 half precision (round to nearest even), as the 16-bit pattern. */
export function toHalf(value: number): number {
  scratch[0] = value;
  const bits = scratchBits[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exp = (bits >>> 23) & 0xff;
  let mant = bits & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    if (rest > halfway || (rest === halfway && (half & 1))) half += 1;
    return sign | half;
  }
  let half = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (half & 1))) half += 1;
  return sign | half;
}

function encode(tensor: GgufTensor, elements: number): Buffer {
  const values = tensor.values;
  if (values && values.length !== elements) {
    throw new Error(`tensor ${tensor.name}: ${values.length} values for ${elements} elements (${tensor.dims.join('×')})`);
  }
  if (!values) return Buffer.alloc(tensorByteSize(tensor.type, elements));
  // GGUF is little-endian, as is every machine Node runs on here: typed arrays are written as they are.
  if (tensor.type === 'F32') return Buffer.from(Float32Array.from(values).buffer);
  if (tensor.type === 'F16') {
    const halves = new Uint16Array(elements);
    for (let i = 0; i < elements; i++) halves[i] = toHalf(values[i]!);
    return Buffer.from(halves.buffer);
  }
  const out = Buffer.alloc(tensorByteSize(tensor.type, elements));
  for (let block = 0; block < elements / Q8_BLOCK; block++) {
    let amax = 0;
    for (let j = 0; j < Q8_BLOCK; j++) amax = Math.max(amax, Math.abs(values[block * Q8_BLOCK + j]!));
    const d = amax / 127;
    const base = block * 34;
    out.writeUInt16LE(toHalf(d), base);
    for (let j = 0; j < Q8_BLOCK; j++) out.writeInt8(d === 0 ? 0 : Math.round(values[block * Q8_BLOCK + j]! / d), base + 2 + j);
  }
  return out;
}

/** Writes a whole GGUF v3 file: header, metadata, tensor infos, aligned tensor data. */
export function writeGguf(file: GgufFile): Buffer {
  const alignment = file.alignment ?? 32;
  const metadata: Record<string, GgufValue> = { ...file.metadata };
  if (alignment !== 32) metadata['general.alignment'] = alignment;
  const head = new ByteSink();
  head.push(Buffer.from('GGUF'));
  head.u32(3);
  head.u64(file.tensors.length);
  head.u64(Object.keys(metadata).length);
  for (const [key, raw] of Object.entries(metadata)) {
    head.string(key);
    const value = typed(raw);
    if (value.gguf === 'array') {
      head.u32(VT.array);
      head.u32(VT[value.of]);
      head.u64(value.values.length);
      for (const item of value.values) head.scalar(value.of, item);
    } else {
      head.u32(VT[value.gguf]);
      head.scalar(value.gguf, value.value);
    }
  }
  const data = new ByteSink();
  for (const tensor of file.tensors) {
    const elements = tensor.dims.reduce((a, b) => a * b, 1);
    if (tensor.type === 'Q8_0' && (tensor.dims[0] ?? 0) % Q8_BLOCK !== 0) {
      throw new Error(`tensor ${tensor.name}: Q8_0 needs the first dimension to be a multiple of ${Q8_BLOCK}, got ${tensor.dims[0]}`);
    }
    head.string(tensor.name);
    head.u32(tensor.dims.length);
    for (const d of tensor.dims) head.u64(d);
    head.u32(GGML_TYPES[tensor.type]);
    head.u64(data.length);
    const bytes = encode(tensor, elements);
    data.push(bytes);
    const pad = (alignment - (bytes.length % alignment)) % alignment;
    if (pad > 0) data.push(Buffer.alloc(pad));
  }
  const headPad = (alignment - (head.length % alignment)) % alignment;
  if (headPad > 0) head.push(Buffer.alloc(headPad));
  return Buffer.concat([head.bytes(), data.bytes()]);
}
