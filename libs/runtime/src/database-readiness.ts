import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { ReadinessRegistry } from '@genasset/http';
import { DATABASE_CONNECTION, type DatabaseConnection } from '@genasset/persistence';

/** `/readyz` fails while the database does not answer. */
@Injectable()
export class DatabaseReadiness implements OnModuleInit {
  constructor(
    @Inject(DATABASE_CONNECTION) private readonly connection: DatabaseConnection,
    private readonly readiness: ReadinessRegistry,
  ) {}

  onModuleInit(): void {
    this.readiness.register('database', () => this.connection.ping());
  }
}
