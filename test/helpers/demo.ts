// What the tests expect of the built-in demo server (src/demo/), written once for the unit
// tests that start it in process and the CLI tests that start `mcp-inspect demo-server`.

/** The demo's showcase tools in list order (without the conformance fixtures, which `--conformance` adds). */
export const DEMO_TOOLS = [
  'echo',
  'add',
  'countdown',
  'weather',
  'fail',
  'picture',
  'chime',
  'embed_resource',
  'mixed_content',
  'log_levels',
  'ask_name',
  'open_link',
  'ask_model',
  'list_roots',
  'research',
];
