/**
 * The recording flags (`--record FILE`, `--redact POINTER`, `--max-record-bytes N`) as the
 * recorder takes them. Shared by the commands that record.
 */
import { UsageError } from '../../protocol/errors.js';
import { parseMaxRecordBytes, type RecordOptions } from '../../record/writer.js';

export interface RecordFlags {
  record?: string;
  redact?: string[];
  maxRecordBytes?: string;
}

/** The recorder's options, or undefined without `--record`; throws UsageError for `--redact`/`--max-record-bytes` without `--record`. */
export function recordOptions(flags: RecordFlags): RecordOptions | undefined {
  if (!flags.record) {
    if (flags.redact?.length || flags.maxRecordBytes !== undefined)
      throw new UsageError('--redact and --max-record-bytes apply to a recording: add --record FILE');
    return undefined;
  }
  return { file: flags.record, redact: flags.redact ?? [], maxBytes: parseMaxRecordBytes(flags.maxRecordBytes) };
}
