/**
 * Runs the sample service: `tsx dev/sample-service/main.ts [--port 0] [--host 127.0.0.1] [--demo]`.
 * The first line on stdout is always `sample service listening on http://HOST:PORT`, which is what
 * the test setup waits for. It must run in a process of its own: the add-on's code blocks its thread
 * on synchronous HTTP and would deadlock a server sharing its event loop.
 */
import { parseArgs } from 'node:util';
import { createSampleServer } from './server';
import { DEMO_DATASET_OPTIONS, DEMO_TRAININGS } from './demo-dataset';
import { DEFAULT_DATASET_OPTIONS, DatasetRegistry } from './store';

const { values: options } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    // Creates the demo dataset, as of today, at start and prints its tokens, for trying the add-on by hand.
    demo: { type: 'boolean', default: false },
    // Stops when stdin closes: a parent that dies without cleaning up (a killed test run) takes us with it.
    'exit-on-stdin-end': { type: 'boolean', default: false },
  },
  strict: true,
});

const port = Number(options.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`Invalid --port ${JSON.stringify(options.port)}: expected an integer from 0 to 65535.`);
  process.exit(2);
}

// A reader that stops after the first line (`| head -1`, a test harness) must not take the server down.
process.stdout.on('error', () => {});

const registry = new DatasetRegistry();
const server = createSampleServer(registry);

server.on('error', (error) => {
  console.error('sample service could not start:', error.message);
  process.exit(1);
});

server.listen(port, options.host, () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('Expected a TCP address');
  console.log(`sample service listening on http://${options.host}:${address.port}`);
  if (options.demo) {
    // The demo as seen today on this machine's calendar (en-CA writes dates as YYYY-MM-DD).
    const today = new Date().toLocaleDateString('en-CA');
    const dataset = registry.create({
      ...DEFAULT_DATASET_OPTIONS,
      ...DEMO_DATASET_OPTIONS,
      demoToday: today,
    });
    console.log(`demo dataset ${dataset.id} (as of ${today}), token: ${dataset.tokens.valid}`);
    // The service sends no training names: the manager types them into the Trainings tab.
    const catalogue = DEMO_TRAININGS.map(
      (training) =>
        `${training.id} ${training.name} (${training.validityMonths === null ? 'no expiry' : `${training.validityMonths} months`}${training.required ? ', required' : ''})`,
    );
    console.log(`trainings to name on the Trainings tab: ${catalogue.join('; ')}`);
    console.log(
      `other tokens: inactive ${dataset.tokens.inactive}, account inactive ${dataset.tokens.accountInactive}, ` +
        `no permission ${dataset.tokens.noPermission}`,
    );
  }
});

function stop(): void {
  server.close(() => process.exit(0));
  // Keep-alive connections would otherwise hold close() open.
  server.closeAllConnections();
}

process.on('SIGTERM', stop);
process.on('SIGINT', stop);
if (options['exit-on-stdin-end']) {
  process.stdin.on('end', stop);
  process.stdin.resume();
}
