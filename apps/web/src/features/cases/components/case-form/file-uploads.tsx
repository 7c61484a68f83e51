import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Group, Progress, Text, Tooltip } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { createContext, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { Upload } from 'tus-js-client';
import { formatPercent } from '../../../../lib/format-number.ts';
import { sessionStore } from '../../../../lib/session.ts';
import { UploadedFile } from './uploaded-file.ts';

/** One chosen file on its way up through tus (docs/decisions/uploads.md § Resumable uploads). */
export interface TrackedUpload {
  percent: number;
  state: 'uploading' | 'done' | 'failed';
  /** The upload's id as soon as the server made it (a draft keeps it), null before or when failed. */
  uploadId: string | null;
  /** The upload's id once finished, or null when it failed or was cancelled (the bytes then go with the form). */
  finished: Promise<string | null>;
  cancel(): void;
}

interface FileUploads {
  /** Bumped on every progress, finish, failure or cancel. */
  version?: number;
  /** Starts uploading `file` at once (resuming an earlier upload of the same file after a reload). */
  start(file: File): void;
  get(file: File): TrackedUpload | undefined;
  /** Aborts the upload and deletes it on the server. */
  cancel(file: File): void;
  /** The upload id of a file in the form, once the server made one; a draft saves these. */
  idOf(file: File): string | null;
}

const FileUploadsContext = createContext<FileUploads | null>(null);

const tusEndpoint = '/api/uploads/tus';

// eslint-disable-next-line lingui/no-unlocalized-strings -- the HTTP authorization scheme, not words
const bearer = () => ({ Authorization: `Bearer ${sessionStore.get()?.token ?? ''}` });

/** A draft's finished upload, tracked as done from the start; cancelling it deletes it on the server. */
function trackedUploaded(file: UploadedFile): TrackedUpload {
  return {
    percent: 100,
    state: 'done',
    uploadId: file.uploadId,
    finished: Promise.resolve(file.uploadId),
    cancel: () =>
      void fetch(`${tusEndpoint}/${file.uploadId}`, {
        method: 'DELETE',
        headers: { 'Tus-Resumable': '1.0.0', ...bearer() },
      }).catch(() => {}),
  };
}

/** Each chosen file's upload, for the inputs (progress, cancel) and the submit (the ids). */
export function FileUploadsProvider({ children }: { children: ReactNode }) {
  const uploads = useRef(new Map<File, TrackedUpload>());
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((version) => version + 1);

  const api = useMemo<FileUploads>(() => {
    const start = (file: File) => {
      if (uploads.current.has(file)) return;
      if (file instanceof UploadedFile) {
        uploads.current.set(file, trackedUploaded(file));
        changed();
        return;
      }
      let settle: (uploadId: string | null) => void = () => {};
      const finished = new Promise<string | null>((resolve) => (settle = resolve));
      const upload = new Upload(file, {
        endpoint: tusEndpoint,
        headers: bearer(),
        metadata: { filename: file.name, filetype: file.type },
        retryDelays: [0, 1000, 3000, 5000, 10000],
        removeFingerprintOnSuccess: true,
        onUploadUrlAvailable() {
          const tracked = uploads.current.get(file);
          if (tracked) tracked.uploadId = upload.url?.split('/').pop() ?? null;
          changed();
        },
        onProgress(sent, total) {
          const tracked = uploads.current.get(file);
          if (tracked) tracked.percent = total ? Math.round((sent / total) * 100) : 100;
          changed();
        },
        onSuccess() {
          const tracked = uploads.current.get(file);
          if (tracked) Object.assign(tracked, { state: 'done', percent: 100 });
          settle(upload.url?.split('/').pop() ?? null);
          changed();
        },
        onError() {
          const tracked = uploads.current.get(file);
          if (tracked) Object.assign(tracked, { state: 'failed', uploadId: null });
          settle(null);
          changed();
        },
      });
      uploads.current.set(file, {
        percent: 0,
        state: 'uploading',
        uploadId: null,
        finished,
        cancel: () => {
          settle(null);
          void upload.abort(true).catch(() => {});
        },
      });
      changed();
      void upload.findPreviousUploads().then((previous) => {
        if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
        upload.start();
      });
    };
    const get = (file: File) => {
      if (file instanceof UploadedFile && !uploads.current.has(file)) uploads.current.set(file, trackedUploaded(file));
      return uploads.current.get(file);
    };
    return {
      start,
      get,
      idOf: (file) => get(file)?.uploadId ?? null,
      cancel(file) {
        uploads.current.get(file)?.cancel();
        uploads.current.delete(file);
        changed();
      },
    };
  }, []);

  // A new value on every change, so progress bars and the submit see it.
  const value = useMemo<FileUploads>(() => ({ ...api, version }), [api, version]);
  return <FileUploadsContext.Provider value={value}>{children}</FileUploadsContext.Provider>;
}

export function useFileUploads(): FileUploads {
  const uploads = useContext(FileUploadsContext);
  if (!uploads) throw new Error('useFileUploads outside FileUploadsProvider');
  return uploads;
}

/** A chosen file's progress bar and its cancel button; `onCancel` also takes the file out of the form. */
export function UploadProgress({ file, onCancel }: { file: File; onCancel: () => void }) {
  const { t } = useLingui();
  const uploads = useFileUploads();
  const tracked = uploads.get(file);
  if (!tracked) return null;
  const fileName = file.name;
  const percent = tracked.percent;
  const label =
    tracked.state === 'done'
      ? t`${fileName} uploaded`
      : tracked.state === 'failed'
        ? t`${fileName}: upload failed, it will be sent with the form`
        : t`${fileName} uploading, ${percent}%`;
  return (
    <Group gap="xs" wrap="nowrap">
      <Progress.Root style={{ flex: 1 }}>
        <Progress.Section
          value={tracked.percent}
          color={tracked.state === 'failed' ? 'red' : tracked.state === 'done' ? 'teal' : 'blue'}
          aria-label={label}
        />
      </Progress.Root>
      <Text size="xs" c="dimmed" w={40} ta="right">
        {formatPercent(percent)}
      </Text>
      <Tooltip label={t`Cancel ${fileName}`}>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="sm"
          aria-label={t`Cancel upload of ${fileName}`}
          onClick={() => {
            uploads.cancel(file);
            onCancel();
          }}
        >
          <IconX size={14} aria-hidden />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
