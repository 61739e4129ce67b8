import { Module } from '@nestjs/common';
import { WebhookPrisma } from './webhook.prisma';

/** The webhook-dispatcher's data layer; nothing outside this service imports it (lint enforces it). */
@Module({ providers: [WebhookPrisma], exports: [WebhookPrisma] })
export class WebhookDataModule {}
