import { Injectable } from '@nestjs/common';
import type { ConsumerBinding } from './event-processor';

/**
 * Consumer name → the database its handlers commit to. Every service module
 * registers its consumer (MessagingModule.forService), so services sharing one
 * process (embedded mode) each apply their events to their own schema with
 * their own Prisma client.
 */
@Injectable()
export class ConsumerRegistry {
  private readonly bindings = new Map<string, ConsumerBinding>();

  register(binding: ConsumerBinding): void {
    const existing = this.bindings.get(binding.consumer);
    if (existing && (existing.schema !== binding.schema || existing.client !== binding.client)) {
      throw new Error(`consumer ${binding.consumer} is registered twice, for schemas ${existing.schema} and ${binding.schema}`);
    }
    this.bindings.set(binding.consumer, binding);
  }

  get(consumer: string): ConsumerBinding {
    const binding = this.bindings.get(consumer);
    if (!binding) throw new Error(`consumer ${consumer} is not registered`);
    return binding;
  }

  names(): ReadonlySet<string> {
    return new Set(this.bindings.keys());
  }
}
