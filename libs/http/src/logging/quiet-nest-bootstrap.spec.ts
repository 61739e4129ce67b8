import { createTestApp, LogCapture } from '../testing/test-app.fixture';
import { NEST_BOOTSTRAP_CONTEXTS } from './quiet-nest-bootstrap';

// One app per file: nestjs-pino keeps its root logger in a static, so a second
// app in the same file would not write to its own capture.
describe("Nest's start-up lines", () => {
  it('are logged at debug (modules loaded, routes mapped), so the info-level log of a start stays short', async () => {
    const logs = new LogCapture();
    const app = await createTestApp(logs, 1024, 'debug');
    try {
      const bootstrap = logs.lines.filter((l) => NEST_BOOTSTRAP_CONTEXTS.has(String(l.context)));
      expect(bootstrap.map((l) => l.msg)).toEqual(
        expect.arrayContaining(['Mapped {/v1/things, POST} route', 'ThingsModule dependencies initialized']),
      );
      expect(bootstrap.filter((l) => l.level !== 20)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
