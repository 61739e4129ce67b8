import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectedShape } from './schema-drift';

describe('expectedShape', () => {
  it('reads columns, native types, nullability and unique keys from a Prisma schema', () => {
    const dir = mkdtempSync(join(tmpdir(), 'prisma-'));
    const file = join(dir, 'schema.prisma');
    writeFileSync(
      file,
      `datasource db {\n provider = "postgresql"\n}\nmodel Widget {\n id String @id\n code String @unique\n at DateTime @map("at_ms") @db.Timestamptz(3)\n note String?\n tags String[]\n @@unique([code, note])\n @@map("widgets")\n}\n`,
    );
    const shape = expectedShape(file);
    expect(shape.columns).toEqual([
      { table: 'widgets', column: 'at_ms', type: 'timestamp(3) with time zone', nullable: false },
      { table: 'widgets', column: 'code', type: 'text', nullable: false },
      { table: 'widgets', column: 'id', type: 'text', nullable: false },
      { table: 'widgets', column: 'note', type: 'text', nullable: true },
      { table: 'widgets', column: 'tags', type: 'text[]', nullable: false },
    ]);
    expect(shape.uniques).toEqual(['widgets(code)', 'widgets(code,note)', 'widgets(id)']);
  });
});
