import { planArches, type PlanArch } from '@portal/contract';
import { useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { isZipName, listStageFiles, looseListing, stageCountsOf, type StageFileListing } from './stage-file-listing.ts';

type CountState = number | string;

/**
 * The stage files chosen in the plan form and what they hold (`listing`, undefined while a
 * ZIP's list is read). Each arch's stage count is filled from the names (its last stage)
 * unless the lab typed one of their own: a count still empty, or still the one filled from
 * the files chosen before, is replaced; a typed one stays, and the list says what is missing.
 */
export function useStageFiles(setCounts: Record<PlanArch, Dispatch<SetStateAction<CountState>>>) {
  const [files, setFiles] = useState<File[]>([]);
  const [listing, setListing] = useState<StageFileListing | undefined>(looseListing([]));
  const chosen = useRef<File[]>([]);
  const filled = useRef<Record<PlanArch, CountState>>({ upper: '', lower: '' });

  const show = (forFiles: File[], result: StageFileListing) => {
    // Files chosen again while a ZIP was read: the older answer is dropped.
    if (chosen.current !== forFiles) return;
    setListing(result);
    const counts = stageCountsOf(result.names);
    if (!counts || result.zips.some((zip) => 'problem' in zip)) return;
    const before = filled.current;
    filled.current = counts;
    for (const arch of planArches) {
      setCounts[arch]((current) => (current === '' || current === before[arch] ? counts[arch] : current));
    }
  };

  const choose = (next: File[]) => {
    chosen.current = next;
    setFiles(next);
    if (next.some((file) => isZipName(file.name))) {
      setListing(undefined);
      void listStageFiles(next).then((result) => show(next, result));
    } else show(next, looseListing(next));
  };

  return { files, listing, choose };
}
