import type { ServerMessageCode, ServerMessageParams } from '@portal/contract';
import { coded } from '../lib/errors.ts';

/** A triangle soup as STL stores it: 9 floats (three x, y, z vertices) per triangle. */
export interface StlTriangles {
  positions: Float32Array<ArrayBuffer>;
  triangles: number;
}

/** Why a mesh is no STL: a refusal by its code (`stl…` in the contract's `serverMessages`), "not a valid STL file: …". */
export const invalidStl = (code: Extract<ServerMessageCode, `stl${string}`>, params: ServerMessageParams = {}) =>
  coded(400, code, params);

const binaryHeaderBytes = 84;
const binaryTriangleBytes = 50;

/**
 * Reads a binary or ASCII STL. Binary is recognised by its size (84 bytes + 50 per declared
 * triangle), not by the text at its start: many binary exporters begin their header with
 * "solid" too. No ASCII file under 27 GB passes that test: its bytes 80-83 are text, which
 * declares at least 0x20202020 triangles. Allocates no more than about the input's size,
 * whatever the file declares.
 */
export function readStl(stl: Uint8Array): StlTriangles {
  const read = isBinaryStl(stl) ? readBinaryStl(stl) : readAsciiStl(stl);
  if (read.triangles === 0) throw invalidStl('stlNoTriangles');
  return read;
}

function isBinaryStl(stl: Uint8Array): boolean {
  if (stl.byteLength < binaryHeaderBytes) return false;
  const declared = new DataView(stl.buffer, stl.byteOffset, stl.byteLength).getUint32(80, true);
  return stl.byteLength === binaryHeaderBytes + binaryTriangleBytes * declared;
}

function readBinaryStl(stl: Uint8Array): StlTriangles {
  const view = new DataView(stl.buffer, stl.byteOffset, stl.byteLength);
  const triangles = view.getUint32(80, true);
  const positions = new Float32Array(triangles * 9);
  for (let triangle = 0; triangle < triangles; triangle++) {
    // Each record: normal (3 floats, ignored), three vertices, a 2-byte attribute.
    const record = binaryHeaderBytes + triangle * binaryTriangleBytes + 12;
    for (let i = 0; i < 9; i++) {
      const value = view.getFloat32(record + i * 4, true);
      if (!Number.isFinite(value)) throw invalidStl('stlCoordinateNotNumber', { triangle: triangle + 1 });
      positions[triangle * 9 + i] = value;
    }
  }
  return { positions, triangles };
}

/**
 * The shortest facet ASCII STL allows, in bytes: "facet normal", 3 numbers, "outer loop",
 * 3 x ("vertex" and 3 numbers), "endloop", "endfacet", each of the 21 words and numbers
 * one character at least, one whitespace between each.
 */
const shortestAsciiFacetBytes = 65 + 20;

/**
 * `solid name`, then facets, then `endsolid name`; several solids one after another are
 * read as one mesh. Normals are skipped.
 */
function readAsciiStl(stl: Uint8Array): StlTriangles {
  const text = Buffer.from(stl.buffer, stl.byteOffset, stl.byteLength).toString('latin1');
  const tokens = new Tokenizer(text);
  const positions = new Float32Array(Math.floor(stl.byteLength / shortestAsciiFacetBytes) * 9);
  let triangles = 0;
  if (tokens.next() !== 'solid') throw invalidStl('stlNotBinaryOrText');
  for (;;) {
    // The solid's name, which may be several words or none, runs to the end of its line.
    tokens.skipLine();
    let word = tokens.next();
    while (word === 'facet') {
      tokens.expect('normal');
      for (let i = 0; i < 3; i++) tokens.number();
      tokens.expect('outer');
      tokens.expect('loop');
      for (let vertex = 0; vertex < 3; vertex++) {
        tokens.expect('vertex');
        for (let i = 0; i < 3; i++) positions[triangles * 9 + vertex * 3 + i] = tokens.number();
      }
      tokens.expect('endloop');
      tokens.expect('endfacet');
      triangles++;
      word = tokens.next();
    }
    if (word !== 'endsolid') throw invalidStl('stlExpectedFacet', { byte: tokens.wordStart });
    tokens.skipLine();
    const after = tokens.next();
    if (after === undefined) break;
    if (after !== 'solid') throw invalidStl('stlTextAfterEnd', { byte: tokens.wordStart });
  }
  return { positions: positions.slice(0, triangles * 9), triangles };
}

const isSpace = (code: number) => code === 32 || (code >= 9 && code <= 13);

/** Whitespace-separated words of an ASCII STL, with the byte each starts at for messages. */
class Tokenizer {
  private readonly text: string;
  private position = 0;
  wordStart = 0;

  constructor(text: string) {
    this.text = text;
  }

  next(): string | undefined {
    const { text } = this;
    while (this.position < text.length && isSpace(text.charCodeAt(this.position))) this.position++;
    if (this.position === text.length) return undefined;
    this.wordStart = this.position;
    while (this.position < text.length && !isSpace(text.charCodeAt(this.position))) this.position++;
    return text.slice(this.wordStart, this.position);
  }

  skipLine() {
    const end = this.text.indexOf('\n', this.position);
    this.position = end === -1 ? this.text.length : end + 1;
  }

  expect(word: string) {
    if (this.next() !== word) throw invalidStl('stlExpectedWord', { word, byte: this.wordStart });
  }

  number(): number {
    const word = this.next();
    const value = word === undefined ? NaN : Number(word);
    if (!Number.isFinite(value)) throw invalidStl('stlExpectedNumber', { byte: this.wordStart });
    return value;
  }
}
