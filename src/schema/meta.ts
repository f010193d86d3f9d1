/**
 * The meta-schema validators compiled when the bundle is built (scripts/meta-validators.mjs
 * replaces this module in dist/ with Ajv's standalone code for each dialect), so that a run
 * checks a schema without compiling the meta-schema first (~90 ms of CPU). From source (the
 * tests run src/ directly) there are none: validate.ts then compiles them, as Ajv does.
 */
import type { ValidateFunction } from 'ajv';

/** A dialect that has a validation engine (see validate.ts's `Dialect`). */
export type EngineDialect = '2020-12' | '2019-09' | 'draft-07';

/** The precompiled meta-schema validator of each dialect, or undefined when running from source. */
export const PRECOMPILED_META: Record<EngineDialect, ValidateFunction> | undefined = undefined;
