/**
 * The WebGL renderer's name, read off the page's main thread (model-canvas.ts asks for it):
 * making a WebGL context waits for the GPU process, 30-350 ms on the page's main thread
 * depending on how busy the machine is (docs/decisions/viewer-first-open.md). `null` when this
 * browser has no WebGL 2 in workers: the page then reads the name itself.
 */
export interface WebGlProbeAnswer {
  name: string | null;
}

const probe = (): WebGlProbeAnswer => {
  if (typeof OffscreenCanvas === 'undefined') return { name: null };
  const gl = new OffscreenCanvas(1, 1).getContext('webgl2');
  if (!gl) return { name: null };
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '';
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return { name };
};

(self as unknown as Worker).postMessage(probe());
