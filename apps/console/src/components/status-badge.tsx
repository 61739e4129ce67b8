const TONES: Record<string, string> = {
  success: 'ok',
  failure: 'bad',
  failed: 'bad',
  canceled: 'muted',
  retrying: 'warn',
  paused: 'muted',
  active: 'ok',
};

/** A status as text with a colour; the word itself carries the meaning, not the colour. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${TONES[status] ?? 'info'}`}>{status}</span>;
}
