// A notice for the operator that must not be lost in the request log (the
// generated administrator password): framed, with blank lines around it, on
// standard output once.

/** The lines framed in a box of '═' and '║'. */
export function noticeBox(title: string, lines: string[]): string {
  const width = Math.max(title.length, ...lines.map((l) => l.length));
  const row = (text: string) => `║ ${text.padEnd(width)} ║`;
  return ['', `╔${'═'.repeat(width + 2)}╗`, row(title), `╟${'─'.repeat(width + 2)}╢`, ...lines.map(row), `╚${'═'.repeat(width + 2)}╝`, ''].join('\n');
}

/** The box that hands over an administrator's generated password. */
export function passwordNotice(email: string, password: string): string {
  return noticeBox('GRC Platform: administrator sign-in', [
    `E-mail:   ${email}`,
    `Password: ${password}`,
    '',
    'Shown once. You will be asked to choose a new password at sign-in.',
    'Lost it? Stop the server and run: npm run reset-admin-password',
  ]);
}
