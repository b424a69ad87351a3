/**
 * MailApp: what would be sent is recorded, never sent; Google's daily recipient quota, its 50
 * recipients a message, its body size limit and address checks apply, and only FULL authorization
 * may send.
 */
import { emulate } from './fixtures/script-emulator';

const SCRIPT = `
  function send(to, subject, body, options) {
    if (options === undefined) MailApp.sendEmail(to, subject, body);
    else MailApp.sendEmail(to, subject, body, options);
  }
  function sendMessage(message) { MailApp.sendEmail(message); }
  function remaining() { return MailApp.getRemainingDailyQuota(); }
`;
const DAY = 24 * 3_600_000;

function addresses(count: number): string {
  return Array.from({ length: count }, (_, index) => `person${index}@example.com`).join(',');
}

test('records each message as sent from the running user, with both bodies', () => {
  const emulator = emulate(SCRIPT);
  emulator.run('sendMessage', [
    {
      to: 'a@example.com, b@example.org',
      cc: 'c@example.com',
      subject: 'Hi',
      body: 'plain',
      htmlBody: '<b>html</b>',
      name: 'Safety Sync',
    },
  ]);
  emulator.asUser('editor@example.com').run('send', ['d@example.com', 'Second', 'text']);
  expect(emulator.mail.sent).toEqual([
    expect.objectContaining({
      from: emulator.users.owner,
      to: ['a@example.com', 'b@example.org'],
      cc: ['c@example.com'],
      bcc: [],
      subject: 'Hi',
      body: 'plain',
      htmlBody: '<b>html</b>',
      name: 'Safety Sync',
    }),
    expect.objectContaining({ from: 'editor@example.com', to: ['d@example.com'], htmlBody: null }),
  ]);
  expect(emulator.counter.snapshot()['MailApp.sendEmail']).toBe(2);
});

test('the daily quota counts every recipient, per user, and renews the next day', () => {
  const emulator = emulate(SCRIPT, { mailDailyQuota: 5 });
  expect(emulator.run('remaining')).toBe(5);
  emulator.run('sendMessage', [{ to: addresses(2), bcc: 'x@example.com', subject: 's', body: 'b' }]);
  expect(emulator.run('remaining')).toBe(2);
  expect(() => emulator.run('send', [addresses(3), 's', 'b'])).toThrow(
    'Service invoked too many times for one day: email.',
  );
  expect(emulator.mail.sent).toHaveLength(1);
  expect(emulator.asUser('editor@example.com').run('remaining')).toBe(5);
  emulator.clock.advance(DAY);
  expect(emulator.run('remaining')).toBe(5);
});

test('refuses more than 50 recipients, a wrong address, no recipient and a body over 200 KB', () => {
  const emulator = emulate(SCRIPT, { mailDailyQuota: 1_500 });
  expect(() =>
    emulator.run('sendMessage', [{ to: addresses(40), cc: addresses(11), subject: 's', body: 'b' }]),
  ).toThrow('Limit Exceeded: Email Recipients Per Message.');
  expect(() => emulator.run('send', ['not an address', 's', 'b'])).toThrow('Invalid email: not an address');
  expect(() => emulator.run('send', ['a@example.com, b@', 's', 'b'])).toThrow('Invalid email: b@');
  expect(() => emulator.run('sendMessage', [{ subject: 's', body: 'b' }])).toThrow('no recipient');
  const half = 'x'.repeat(100 * 1024 + 1);
  expect(() => emulator.run('send', ['a@example.com', 's', half, { htmlBody: half }])).toThrow(
    'Limit Exceeded: Email Body Size.',
  );
  expect(() => emulator.run('send', ['a@example.com', 's', 'b', { attachments: [] }])).toThrow(
    'not emulated',
  );
  expect(() => emulator.run('send', ['a@example.com', 's', 'b', { bodyHtml: '<b>' }])).toThrow(
    "don't match the method signature for MailApp.sendEmail",
  );
  expect(emulator.mail.sent).toEqual([]);
  expect(emulator.run('remaining')).toBe(1_500);
});

test('a custom function cannot send mail', () => {
  const emulator = emulate(
    `${SCRIPT}\nfunction MAILME() { MailApp.sendEmail('a@example.com', 's', 'b'); return 1; }`,
  );
  const id = emulator.createSpreadsheet();
  expect(emulator.customFunction(id, 'MAILME', [])).toEqual({
    error: expect.stringMatching(/You do not have permission to call MailApp\.sendEmail/),
  });
  expect(emulator.mail.sent).toEqual([]);
});
