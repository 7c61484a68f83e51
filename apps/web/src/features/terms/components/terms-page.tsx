import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Container, List, Stack, Text, Title } from '@mantine/core';

const sections: {
  title: MessageDescriptor;
  paragraphs: MessageDescriptor[];
  list?: { intro: MessageDescriptor; items: MessageDescriptor[] };
}[] = [
  {
    title: msg`1. The service`,
    paragraphs: [
      msg`Aligner Portal lets licensed dental professionals submit patient cases for clear-aligner treatment planning and manufacturing, and follow those cases until delivery.`,
      msg`Treatment plans are proposals. The treating doctor reviews and approves every plan and remains responsible for diagnosis, treatment decisions and the care of the patient.`,
    ],
  },
  {
    title: msg`2. Your account`,
    paragraphs: [
      msg`Accounts are personal. Keep your password secret and tell us at once if you think someone else has used your account.`,
      msg`Self-registered accounts are activated after review; we may refuse or suspend an account that does not belong to a licensed professional.`,
    ],
  },
  {
    title: msg`3. Patient records and consent`,
    paragraphs: [
      msg`By submitting a case you confirm that the patient (or their guardian) has consented to treatment with clear aligners and to sharing their records, photographs and scans with us for planning and manufacturing.`,
      msg`Submit only the records a case needs. Scans, photographs and X-rays must be recent, complete and of the patient named in the case.`,
    ],
  },
  {
    title: msg`4. Privacy and security`,
    paragraphs: [
      msg`Patient data is used only to plan, manufacture, ship and support the treatment of that patient. It is stored securely, access is limited to the staff who work on the case, and it is never sold.`,
    ],
  },
  {
    title: msg`5. Orders, manufacturing and shipping`,
    paragraphs: [
      msg`Manufacturing starts once the treatment plan is approved. Delivery times are estimates; we tell you when a case is dispatched and delivered.`,
      msg`Refinements, replacement aligners and retainers are ordered through the portal as separate requests where the plan does not already include them.`,
    ],
  },
  {
    title: msg`6. Responsibilities and limits`,
    paragraphs: [
      msg`Clear-aligner results depend on patient compliance and on clinical factors outside our control; no particular outcome is guaranteed.`,
    ],
    list: {
      intro: msg`The treating doctor agrees to:`,
      items: [
        msg`examine the patient and confirm that clear-aligner treatment is suitable;`,
        msg`check each treatment plan before approving it;`,
        msg`supervise the treatment and see the patient at regular intervals;`,
        msg`tell us promptly about any problem with fit, comfort or progress.`,
      ],
    },
  },
];

/** The Terms and Conditions; also shown inside the case form's terms dialog. */
export function TermsPage() {
  const { i18n } = useLingui();
  return (
    <Container component="main" size="md" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1}>
            <Trans>Terms and Conditions</Trans>
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            <Trans>Clear-aligner case submission service</Trans>
          </Text>
        </div>
        <Text>
          <Trans>
            These terms apply to every case submitted through Aligner Portal. Please read them before accepting them in
            the case form.
          </Trans>
        </Text>
        {sections.map((section) => (
          <Stack key={section.title.id} gap="xs" component="section">
            <Title order={2} size="h4">
              {i18n._(section.title)}
            </Title>
            {section.paragraphs.map((paragraph) => (
              <Text key={paragraph.id}>{i18n._(paragraph)}</Text>
            ))}
            {section.list && (
              <>
                <Text>{i18n._(section.list.intro)}</Text>
                <List spacing={4}>
                  {section.list.items.map((item) => (
                    <List.Item key={item.id}>{i18n._(item)}</List.Item>
                  ))}
                </List>
              </>
            )}
          </Stack>
        ))}
        <Text size="sm" c="dimmed">
          <Trans>Questions about these terms can be sent to your Aligner Portal contact.</Trans>
        </Text>
      </Stack>
    </Container>
  );
}
