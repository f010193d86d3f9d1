// jpeg-js ships types for its root module (encoder and decoder together); the TUI loads only
// the decoder, whose file has none.
declare module 'jpeg-js/lib/decoder.js' {
  interface DecodeOptions {
    useTArray?: boolean;
    formatAsRGBA?: boolean;
    tolerantDecoding?: boolean;
    maxResolutionInMP?: number;
    maxMemoryUsageInMB?: number;
  }
  function decode(data: Uint8Array, opts?: DecodeOptions): { width: number; height: number; data: Uint8Array };
  export default decode;
}
