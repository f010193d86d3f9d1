import { describe, expect, it } from 'vitest';
import { ConfigError, inputIdsIn, substitute, type VariableScope } from '../../src/config/index.js';

const scope: VariableScope = {
  env: { TOKEN: 'tok', EMPTY: '', PATH: '/bin' },
  platform: 'linux',
  userHome: '/home/ada',
  workspaceFolder: '/work/app',
  inputs: { 'api-key': 'k-1', region: 'eu' },
};
const place = { server: 's', file: '/work/app/.vscode/mcp.json', shownFile: '.vscode/mcp.json', field: 'args[0]' };
const sub = (s: string, sc: VariableScope = scope) => substitute(s, sc, place);

function fail(s: string, sc: VariableScope = scope): ConfigError {
  try {
    sub(s, sc);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error(`expected ${s} to fail`);
}

describe('substitute: every variable kind', () => {
  it('${env:NAME}', () => {
    expect(sub('Bearer ${env:TOKEN}')).toBe('Bearer tok');
    expect(sub('[${env:EMPTY}]')).toBe('[]'); // set but empty is a value
  });

  it('${NAME} and ${NAME:-default} (Claude Code)', () => {
    expect(sub('${TOKEN}/${PATH}')).toBe('tok//bin');
    expect(sub('${MISSING:-fallback}')).toBe('fallback');
    expect(sub('${EMPTY:-fallback}')).toBe('fallback');
    expect(sub('${TOKEN:-fallback}')).toBe('tok');
    expect(sub('${MISSING:-}')).toBe('');
    expect(sub('${MISSING:-a:b c}')).toBe('a:b c');
  });

  it('${userHome}, ${workspaceFolder}, ${workspaceFolderBasename}, ${pathSeparator}, ${/}', () => {
    expect(sub('${userHome}/x')).toBe('/home/ada/x');
    expect(sub('${workspaceFolder}/src')).toBe('/work/app/src');
    expect(sub('${workspaceFolderBasename}')).toBe('app');
    expect(sub('a${pathSeparator}b${/}c')).toBe('a/b/c');
    expect(sub('a${/}b', { ...scope, platform: 'win32' })).toBe('a\\b');
    expect(sub('${workspaceFolderBasename}', { ...scope, workspaceFolder: 'C:\\src\\app\\' })).toBe('app');
  });

  it('${input:ID} from the gathered values', () => {
    expect(sub('Bearer ${input:api-key} ${input:region}')).toBe('Bearer k-1 eu');
    expect(inputIdsIn('${input:a} ${input:b} ${input:a} ${env:X} ${input:}')).toEqual(['a', 'b']);
  });

  it('one pass: a value holding ${…} is not expanded again; text without variables is untouched', () => {
    expect(sub('${env:TRICK}', { ...scope, env: { TRICK: '${env:TOKEN}' } })).toBe('${env:TOKEN}');
    expect(sub('no variables, $TOKEN, ${ unterminated')).toBe('no variables, $TOKEN, ${ unterminated');
  });

  it('Windows environment names are case-insensitive', () => {
    const win: VariableScope = { ...scope, platform: 'win32', env: { Path: 'C:\\bin', USERPROFILE: 'C:\\Users\\ada' } };
    expect(sub('${env:PATH};${env:userprofile};${path}', win)).toBe('C:\\bin;C:\\Users\\ada;C:\\bin');
    expect(fail('${env:path}').code).toBe('MCPI_CONFIG_VARIABLE'); // …but not on Linux
  });
});

describe('substitute: undefined variables are errors, never sent literally', () => {
  it('an unset environment variable', () => {
    const e = fail('Bearer ${env:NOPE}');
    expect(e).toMatchObject({ code: 'MCPI_CONFIG_VARIABLE', file: place.file, server: 's' });
    expect(e.message).toBe('server "s" (.vscode/mcp.json), "args[0]": ${env:NOPE}: the environment variable NOPE is not set');
    expect(fail('${NOPE}').message).toBe(
      'server "s" (.vscode/mcp.json), "args[0]": ${NOPE}: the environment variable NOPE is not set (write ${NOPE:-default} for a default)',
    );
    expect(fail('${env:}').message).toMatch(/\$\{env:\} names no variable/);
  });

  it('an input without a value', () => {
    const e = fail('${input:secret}');
    expect(e).toMatchObject({ code: 'MCPI_CONFIG_INPUT', inputId: 'secret' });
    expect(e.message).toBe('server "s" (.vscode/mcp.json), "args[0]": ${input:secret} has no value; pass it with --config-input secret=VALUE');
  });

  it('unsupported and unknown variables', () => {
    expect(fail('${command:pickFile}').message).toBe(
      'server "s" (.vscode/mcp.json), "args[0]": ${command:pickFile}: mcp-inspect does not support ${command:…} variables (supported: ${env:NAME}, ${NAME}, ${userHome}, ${workspaceFolder}, ${input:ID})',
    );
    expect(fail('${config:editor.fontSize}').message).toMatch(/does not support \$\{config:…\}/);
    expect(fail('${file:/etc/token}').message).toMatch(/does not support \$\{file:…\}/);
    expect(fail('${not a variable}').message).toMatch(/"args\[0\]": \$\{not a variable\} is not a variable mcp-inspect knows/);
    expect(fail('${}').message).toMatch(/\$\{\} is not a variable/);
  });
});
