/**
 * "2026-12-06 11:43 Europe/Berlin": a moment as a mail tells it to its reader, in their time zone
 * (docs/decisions/settings.md § Time zones); "... UTC" in UTC.
 */
export function zonedTimeText(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${timeZone}`;
}
