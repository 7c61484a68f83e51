// @vitest-environment happy-dom
import { i18n } from '@lingui/core';
import { act, renderHook, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { zipOf } from '../../../testing/zips.ts';
import { useStageFiles } from './use-stage-files.ts';

// The messages in English, as the code writes them (the words these tests check).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const model = new Uint8Array(300);
const stlFiles = (arch: string, last: number) =>
  Array.from({ length: last + 1 }, (_, stage) => new File([model], `${arch}_${String(stage).padStart(2, '0')}.stl`));

/** A File whose reads wait for `release`; `reads` counts those done. */
function heldFile(bytes: Buffer, name: string) {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const state = { reads: 0, release: () => release() };
  const hold = <T extends Blob>(blob: T): T =>
    new Proxy(blob, {
      get(target, key) {
        if (key === 'slice') return (start?: number, end?: number) => hold(target.slice(start, end));
        if (key === 'arrayBuffer') {
          return async () => {
            await gate;
            const buffer = await target.arrayBuffer();
            state.reads++;
            return buffer;
          };
        }
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  return { file: hold(new File([new Uint8Array(bytes)], name)), state };
}

/** The form's two counts and the hook, as the upload form holds them. */
function useForm() {
  const [upper, setUpper] = useState<number | string>('');
  const [lower, setLower] = useState<number | string>('');
  const stageFiles = useStageFiles({ upper: setUpper, lower: setLower });
  return { upper, setUpper, lower, setLower, ...stageFiles };
}

describe('useStageFiles', () => {
  it('fills the counts from the STL names chosen, and again from the next files unless a count was typed', () => {
    const { result } = renderHook(useForm);
    act(() => result.current.choose([...stlFiles('upper', 3), ...stlFiles('lower', 2)]));
    expect([result.current.upper, result.current.lower]).toEqual([3, 2]);
    expect(result.current.listing?.names).toHaveLength(7);

    // The lab types its own upper count: the next files fill the lower one only.
    act(() => result.current.setUpper(5));
    act(() => result.current.choose([...stlFiles('upper', 4), ...stlFiles('lower', 4)]));
    expect([result.current.upper, result.current.lower]).toEqual([5, 4]);
  });

  it('fills them from a ZIP once its list is read, and not from files chosen since', async () => {
    const zip = await zipOf(
      [...stlFiles('upper', 30), ...stlFiles('lower', 30)].map((file) => ({
        name: file.name,
        data: Buffer.from(model),
      })),
    );
    const { result } = renderHook(useForm);
    act(() => result.current.choose([new File([new Uint8Array(zip)], 'plan.zip')]));
    expect(result.current.listing).toBeUndefined();
    await waitFor(() => expect(result.current.listing?.zips).toEqual([{ name: 'plan.zip', entries: 62 }]));
    expect([result.current.upper, result.current.lower]).toEqual([30, 30]);

    // A ZIP chosen and replaced before its list is read: the STLs chosen after it count.
    const held = heldFile(zip, 'plan.zip');
    act(() => result.current.choose([held.file]));
    act(() => result.current.choose(stlFiles('upper', 2)));
    expect([result.current.upper, result.current.lower]).toEqual([2, 0]);
    held.state.release();
    // Its end and its directory read, then one macrotask: whatever the listing chained on them has run.
    await waitFor(() => expect(held.state.reads).toBe(2));
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect([result.current.upper, result.current.lower]).toEqual([2, 0]);
    expect(result.current.listing?.zips).toEqual([]);
  });

  it('leaves the counts alone when a ZIP cannot be listed', async () => {
    const { result } = renderHook(useForm);
    act(() => result.current.choose([new File([model], 'plan.zip')]));
    await waitFor(() => expect(result.current.listing).toBeDefined());
    expect(result.current.listing?.zips).toEqual([
      { name: 'plan.zip', problem: 'no ZIP directory at its end: not a ZIP, or cut short' },
    ]);
    expect([result.current.upper, result.current.lower]).toEqual(['', '']);
  });
});
