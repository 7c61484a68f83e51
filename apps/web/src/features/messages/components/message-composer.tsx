import { Trans, useLingui } from '@lingui/react/macro';
import { Button, FileInput, Group, Stack, Textarea } from '@mantine/core';
import { maxMessageFiles, maxMessageLength, messageFileExtensions, messageMessages } from '@portal/contract';
import { IconPaperclip, IconSend } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { errorMessage } from '../../../lib/notify.ts';
import { serverText } from '../../../lib/server-text.ts';
import { useSendCaseMessage } from '../api/send-case-message.ts';

const acceptedEndings = messageFileExtensions.map((extension) => `.${extension}`);
const accept = acceptedEndings.join(',');
/** By name, as the server checks first (it checks the bytes too). */
const isAcceptedFile = (file: File) => acceptedEndings.some((ending) => file.name.toLowerCase().endsWith(ending));

/** Writes a message: text, files, Send; a refusal is shown under the field it concerns. */
export function MessageComposer({ caseId }: { caseId: number }) {
  const { t } = useLingui();
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<{ text?: string; files?: string }>({});
  const send = useSendCaseMessage();

  // The picker's `accept` is only a hint ("All files" in the dialog gets past it): a file the
  // server would refuse after Send is refused here, by name, and the rest are kept.
  const pick = (picked: File[]) => {
    const refused = picked.filter((file) => !isAcceptedFile(file)).map((file) => file.name);
    setFiles(picked.filter(isAcceptedFile));
    const names = refused.join(', ');
    const reason = serverText(messageMessages.fileType);
    setErrors({ files: refused.length > 0 ? t`${names}: ${reason}` : undefined });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim() && files.length === 0) return setErrors({ text: serverText(messageMessages.blank) });
    if (text.length > maxMessageLength) return setErrors({ text: serverText(messageMessages.tooLong) });
    if (files.length > maxMessageFiles) return setErrors({ files: serverText(messageMessages.tooManyFiles) });
    setErrors({});
    send.mutate(
      { caseId, text, files },
      {
        onSuccess: () => {
          setText('');
          setFiles([]);
        },
        onError: (error) => {
          const fieldErrors = error instanceof ApiError ? error.fieldErrors : {};
          const message = errorMessage(error, t`The message could not be sent`);
          setErrors(
            fieldErrors.files
              ? { files: serverText(fieldErrors.files) }
              : { text: fieldErrors.text ? serverText(fieldErrors.text) : message },
          );
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t`Write a message`}>
      <Stack gap="xs">
        <Textarea
          label={t`Message`}
          placeholder={t`Write to the other side about this case`}
          autosize
          minRows={2}
          maxRows={8}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          error={errors.text}
        />
        <Group align="flex-end" justify="space-between" wrap="wrap">
          <FileInput
            label={t`Attach files`}
            description={t`JPEG, PNG, PDF or STL, at most ${maxMessageFiles}`}
            placeholder={t`Choose files`}
            multiple
            clearable
            accept={accept}
            leftSection={<IconPaperclip size={16} aria-hidden />}
            value={files}
            onChange={pick}
            error={errors.files}
            style={{ flex: 1, minWidth: 220 }}
          />
          <Button type="submit" loading={send.isPending} leftSection={<IconSend size={16} aria-hidden />}>
            <Trans>Send</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
