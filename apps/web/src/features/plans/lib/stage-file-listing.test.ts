import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { zipOf } from '../../../testing/zips.ts';
import { listStageFiles, stageCountsOf } from './stage-file-listing.ts';

// The messages in English, as the code writes them (the words these tests check).
i18n.loadAndActivate({ locale: 'en', messages: {} });

const model = Buffer.alloc(300, 1);
const fileOf = (bytes: Buffer, name: string) => new File([new Uint8Array(bytes)], name);

describe('listStageFiles', () => {
  it("lists a ZIP's entries as the server reads them: folders, __MACOSX and dot files left out", async () => {
    const zip = await zipOf(
      [
        { name: 'plan/upper_00.stl', data: model },
        { name: 'plan/upper_01.stl', data: model },
        { name: '__MACOSX/plan/._upper_00.stl', data: model },
        { name: 'plan/.DS_Store', data: model },
        { name: 'plan/readme.txt', data: model },
      ],
      { folders: ['plan/'] },
    );
    expect(await listStageFiles([fileOf(zip, 'Plan v2.ZIP')])).toEqual({
      names: ['plan/upper_00.stl', 'plan/upper_01.stl', 'plan/readme.txt'],
      zips: [{ name: 'Plan v2.ZIP', entries: 3 }],
    });
  });

  it('says why a ZIP could not be listed, and lists the STLs by name', async () => {
    const zip = await zipOf([{ name: 'upper_00.stl', data: model }]);
    const listing = await listStageFiles([
      fileOf(model, 'upper_00.stl'),
      fileOf(model, 'plan.zip'),
      fileOf(zip.subarray(0, zip.length - 10), 'cut.zip'),
    ]);
    expect(listing).toEqual({
      names: ['upper_00.stl'],
      zips: [
        { name: 'plan.zip', problem: 'no ZIP directory at its end: not a ZIP, or cut short' },
        { name: 'cut.zip', problem: 'no ZIP directory at its end: not a ZIP, or cut short' },
      ],
    });
  });
});

describe('stageCountsOf', () => {
  it("gives each arch's last stage, 0 for an arch without files, nothing without a stage file", () => {
    expect(stageCountsOf(['plan/Maxillary Stage 30.stl', 'upper_00.stl', 'lower-12.stl', 'readme.txt'])).toEqual({
      upper: 30,
      lower: 12,
    });
    expect(stageCountsOf(['upper_00.stl', 'upper_03.stl'])).toEqual({ upper: 3, lower: 0 });
    expect(stageCountsOf(['readme.txt', 'scan.stl'])).toBeUndefined();
  });
});
