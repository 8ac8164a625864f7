// The barcode reader behind the camera: the browser's own BarcodeDetector where it reads the
// badge formats (Chrome on Android, macOS, ChromeOS), else the `barcode-detector` ponyfill on
// ZXing WebAssembly. The polyfill and its WebAssembly file load only when needed (a separate
// chunk), and the WebAssembly file is one of the portal's own assets: the package's default is a
// public CDN, which the content policy refuses and which is unreachable offline.

/** The formats badges carry, QR first. Names as the Barcode Detection API spells them. */
export const BADGE_FORMATS = ['qr_code', 'code_128', 'code_39', 'data_matrix', 'pdf417', 'aztec'] as const;

export interface DetectedCode {
  rawValue: string;
  format: string;
}

/** What the camera loop needs of a detector (the native one and the ponyfill both fit). */
export interface CodeDetector {
  detect(source: ImageBitmapSource): Promise<DetectedCode[]>;
  /** Which implementation reads: 'native' or 'wasm'. */
  readonly kind: 'native' | 'wasm';
}

interface NativeDetectorClass {
  new (options?: { formats: string[] }): { detect(source: ImageBitmapSource): Promise<DetectedCode[]> };
  getSupportedFormats(): Promise<string[]>;
}

async function nativeDetector(): Promise<CodeDetector | null> {
  const Native = (globalThis as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  if (!Native) return null;
  try {
    const supported = new Set(await Native.getSupportedFormats());
    // A native detector that cannot read QR (the badges' main format) is not worth using.
    if (!supported.has('qr_code')) return null;
    const detector = new Native({ formats: BADGE_FORMATS.filter((format) => supported.has(format)) });
    return { kind: 'native', detect: (source) => detector.detect(source) };
  } catch {
    return null;
  }
}

async function wasmDetector(): Promise<CodeDetector> {
  const [{ BarcodeDetector, prepareZXingModule }, { default: wasmUrl }] = await Promise.all([
    import('barcode-detector/ponyfill'),
    import('zxing-wasm/reader/zxing_reader.wasm?url'),
  ]);
  // Compile the module now, from the portal's own copy, so the first frame does not wait for it.
  await prepareZXingModule({
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) },
    fireImmediately: true,
  });
  const detector = new BarcodeDetector({ formats: [...BADGE_FORMATS] });
  return { kind: 'wasm', detect: (source) => detector.detect(source as Parameters<typeof detector.detect>[0]) };
}

let creating: Promise<CodeDetector> | null = null;

/** One detector for the page's life (compiling the WebAssembly again on each mount costs ~100 ms). */
export function codeDetector(): Promise<CodeDetector> {
  creating ??= (async () => (await nativeDetector()) ?? wasmDetector())();
  creating.catch(() => {
    creating = null;
  });
  return creating;
}
