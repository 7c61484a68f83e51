import type { BufferGeometry } from 'three';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';

/** Fetches an STL (the session cookie authorises it) and parses it; a file with no triangles is refused. Used by the case scan viewer and the plan stage viewer. */
export async function loadStl(url: string, signal: AbortSignal): Promise<BufferGeometry> {
  const response = await fetch(url, { credentials: 'include', signal });
  if (!response.ok) throw new Error(`the server answered ${response.status}`);
  const data = await response.arrayBuffer();
  let geometry: BufferGeometry;
  try {
    geometry = new STLLoader().parse(data);
  } catch {
    throw new Error('it is not a valid STL file');
  }
  if (!geometry.getAttribute('position')?.count) {
    geometry.dispose();
    throw new Error('it is not a valid STL file');
  }
  return geometry;
}
