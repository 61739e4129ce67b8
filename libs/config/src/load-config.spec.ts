import { commonEnv, ConfigError, loadConfig, vars, z } from './index';

describe('loadConfig', () => {
  it('applies defaults and coerces types', () => {
    const config = loadConfig(commonEnv, {});
    expect(config.PORT).toBe(8080);
    expect(config.DATA_DIR).toBe('./.data');
    expect(config.S3_FORCE_PATH_STYLE).toBe(true);
    expect(config.KAFKA_BROKERS).toBeUndefined();
  });

  it('parses lists, booleans and durations', () => {
    const schema = z.object({ B: vars.list(), F: vars.bool(false), D: vars.durations('60s,120s') });
    expect(loadConfig(schema, { B: 'a:1, b:2', F: 'true' })).toEqual({ B: ['a:1', 'b:2'], F: true, D: [60000, 120000] });
  });

  it('names every bad variable in one error', () => {
    let error: unknown;
    try {
      loadConfig(commonEnv, { PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const variables = (error as ConfigError).problems.map((p) => p.variable).sort();
    expect(variables).toEqual(['DATABASE_URL', 'LOG_LEVEL', 'PORT']);
    expect((error as Error).message).toContain('PORT');
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig(commonEnv, { PORT: '' }).PORT).toBe(8080);
  });

  it('rejects a malformed duration naming it', () => {
    const schema = z.object({ WEBHOOK_TIMEOUT: vars.duration('30s') });
    expect(() => loadConfig(schema, { WEBHOOK_TIMEOUT: 'soon' })).toThrow(/WEBHOOK_TIMEOUT: "soon"/);
  });
});
