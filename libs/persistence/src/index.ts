export {
  type DatabaseConnection,
  type Row,
  type SessionSettings,
  type StatementRunner,
  quoteIdent,
} from './database';
export { PostgresConnection } from './postgres-connection';
export { PgliteConnection } from './pglite-connection';
export { openConnection, type ConnectionSettings } from './open-connection';
export { lockDataDir, DataDirInUseError, LOCK_FILE, type DataDirLock, type LockHolder } from './data-dir-lock';
export { migrate, type SchemaDefinition, type AppliedMigration } from './migrator';
export {
  createPrismaClient,
  prismaClientOptions,
  TRANSACTION_OPTIONS,
  type PrismaClientClass,
} from './prisma-factory';
export { DatabaseModule, DATABASE_CONNECTION } from './nest/database.module';
export { cursorTime } from './cursor-time';
export { prepared, isPrepared } from './prepared-statements';
export { filterConditionSql, matchCountSql, type SqlTags } from './search/filter-sql';
export { pageToken, invalidPageToken, encodeTimeAndId, timeAndId, type TimeAndId } from './page-token';
export { WakeSignal } from './leased-work/wake-signal';
export {
  ClaimLoop,
  TaskLoop,
  type ClaimLoopOptions,
  type ClaimRound,
  type ClaimedTask,
  type TaskLoopOptions,
} from './leased-work/claim-loop';
export { LeaseTable, type LeaseTableSpec, type LeaseEnd, type Statement } from './leased-work/lease-table';
