/**
 * The NestJS peer's Prisma service, as NestJS's Prisma recipe writes it: one injectable client,
 * connected when the module initialises, disconnected when it is destroyed. The database is the
 * benchmark's (`BENCH_DATABASE_URL`), through the generated client of its kind (../../servers/prisma.ts).
 */
import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { PrismaClient } from '../../../generated/prisma/sqlite/client/client.js';
import { openPrisma } from '../../servers/prisma.js';

/** The database URL and the statement observer of the peer being started (set before the module is created). */
export const PRISMA_OPTIONS: { databaseUrl: string; onQuery?: (sql: string) => void } = { databaseUrl: '' };

@Injectable()
export class PrismaService implements OnModuleInit, OnModuleDestroy {
  private client: PrismaClient | undefined;

  /** The connected client (opened when the module initialises, before the application serves). */
  get db(): PrismaClient {
    if (!this.client) throw new Error('PrismaService used before the module initialised');
    return this.client;
  }

  async onModuleInit(): Promise<void> {
    this.client = await openPrisma(PRISMA_OPTIONS.databaseUrl, PRISMA_OPTIONS.onQuery);
    await this.client.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.client?.$disconnect();
  }
}
