import * as yauzl from 'yauzl';

export interface ZipEntry {
  name: string;
  bytes: Buffer;
  /** 0: stored, 8: deflated. */
  compressionMethod: number;
}

/** Every entry of a zip file, read with yauzl (CRC checked as each entry is read). */
export function unzip(zip: Buffer): Promise<ZipEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true }, (error, file) => {
      if (error || !file) return reject(error ?? new Error('no zip'));
      const entries: ZipEntry[] = [];
      file.on('error', reject);
      file.on('end', () => resolve(entries));
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.push({
              name: entry.fileName,
              bytes: Buffer.concat(chunks),
              compressionMethod: entry.compressionMethod,
            });
            file.readEntry();
          });
        });
      });
      file.readEntry();
    });
  });
}
