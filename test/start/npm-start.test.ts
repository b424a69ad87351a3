/**
 * `npm start` as a newcomer runs it: the whole job on this machine, a summary on stdout and an HTML
 * snapshot of the workbook.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(__dirname, '../..');

test('npm start imports everything, flags inspections, and writes a snapshot with every tab and the digest', async () => {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'safety-sync-start-')), 'demo.html');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'dev', 'start.ts'), '--out', out],
    { cwd: ROOT, timeout: 120_000 },
  );
  expect(stdout).toMatch(/^ {2}Completed trainings +[1-9]\d* rows$/m);
  expect(stdout).toMatch(/^ {2}Equipment types +[1-9]\d* rows$/m);
  expect(stdout).toMatch(
    /^Inspections flagged: [1-9]\d* expired, \d+ expiring, [1-9]\d* with no inspection recorded/m,
  );
  expect(stdout).toMatch(/^ {2}Training matrix +\d+ rows$/m);
  expect(stdout).toMatch(
    /^Trainings flagged: [1-9]\d* expired, \d+ expiring \(after filling in 10 trainings of the catalogue\)$/m,
  );
  expect(stdout).toMatch(
    /^HTTP requests: \d+ \(\d+ equipmenttypes\.list, \d+ completedtrainings\.list, \d+ users\.info\)$/m,
  );
  // It ends by saying what to open and what its two counts mean.
  expect(stdout).toContain(`Open ${out} in a browser`);
  expect(stdout).toMatch(/^HTTP requests count the calls the add-on made to the service/m);
  expect(stdout).toMatch(/^Apps Script service calls count its reads and writes of the spreadsheet/m);
  const html = fs.readFileSync(out, 'utf8');
  for (const tab of [
    'Completed trainings',
    'Equipment types',
    'Equipment metafields',
    'Inspection schedules',
    'Upcoming inspections',
    'Sync log',
    'Trainings',
    'Training matrix',
    'Expiring trainings',
    'Overview',
    'Formulas',
  ]) {
    expect(html).toContain(`>${tab}</a>`);
  }
  expect(html).toContain('<figcaption>Completed trainings per month, last 24 months</figcaption>');
  expect(html).toContain('<figcaption>Inspections due per month, next 12 months (forecast)</figcaption>');
  expect(html).toContain('Expired');
  expect(html).not.toMatch(/#ERROR!|#NAME\?/);
  // The demo's People has sites and departments: the Overview rolls them up, each name opening the
  // Training matrix through its filter view.
  expect(html).toContain('>By site (a name opens the matrix filtered)<');
  expect(html).toContain('>By department<');
  expect(html).toMatch(/title="Opens the filter view &quot;Site: [^&]+ \(Safety Sync\)&quot;"/);

  // Beside the snapshot: the digest the scheduled refresh would e-mail, in both bodies.
  const digestHtml = out.replace(/\.html$/, '-digest.html');
  const digestText = out.replace(/\.html$/, '-digest.txt');
  expect(stdout).toContain(
    `Open ${digestHtml} (or ${digestText}) to read the e-mail digest the daily refresh would send, "`,
  );
  const text = fs.readFileSync(digestText, 'utf8');
  expect(text).toMatch(
    /^To: safety-team@example\.com\nFrom: Safety Sync <owner@example\.com>\nSubject: Safety Sync: /,
  );
  expect(text).toMatch(/^Expired inspections \(\d+/m);
  expect(text).toMatch(
    /^- .+: \d+ days? overdue \(\d{4}-\d\d-\d\d\) https:\/\/docs\.google\.com\/spreadsheets\/d\/\S+#gid=\d+&range=A\d+$/m,
  );
  expect(text).toContain('Sent by the scheduled refresh of owner@example[.]com');
  const mailHtml = fs.readFileSync(digestHtml, 'utf8');
  expect(mailHtml).toMatch(
    /<li><a href="https:\/\/docs\.google\.com\/spreadsheets\/d\/[^"]+#gid=\d+&amp;range=A\d+">/,
  );
  expect(mailHtml).not.toMatch(/<li><a[^>]*>[^<]*(&(?!amp;|lt;|gt;|quot;|#39;)|['"])[^<]*<\/a>/);
});
