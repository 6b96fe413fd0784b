import { describe, expect, it } from 'vitest';
import { parseServerArgs, UsageError } from '../../../src/server/args';

describe('parseServerArgs', () => {
  it('defaults: loopback, a free port, no config, no state', () => {
    expect(parseServerArgs([])).toEqual({ port: 0, host: '127.0.0.1' });
  });

  it('puts the state file beside the config unless --state says otherwise', () => {
    expect(parseServerArgs(['--config', '/x/c.json', '--port', '8080'])).toEqual({ config: '/x/c.json', port: 8080, host: '127.0.0.1', state: '/x/c.json.state.json' });
    expect(parseServerArgs(['--config=/x/c.json', '--state', '/y/s.json', '--host', '::1'])).toMatchObject({ state: '/y/s.json', host: '::1' });
    expect(parseServerArgs(['--state', '/y/s.json'])).toEqual({ port: 0, host: '127.0.0.1', state: '/y/s.json' });
  });

  it.each([
    [['--port', 'abc']], [['--port', '-1']], [['--port', '70000']], [['--port', '1.5']],
    [['--bogus']], [['extra']], [['--config']], [['--host', '']],
  ])('refuses %j', (argv) => {
    expect(() => parseServerArgs(argv)).toThrow(UsageError);
  });
});
