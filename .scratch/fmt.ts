import Database from 'better-sqlite3';
import { createTestDatabase, seedDatabase } from '../test/support/database.js';
import { sqliteFilePath } from '../runtime/database.js';
const url = await createTestDatabase('sqlite');
await seedDatabase(url, { orgs: 1, users: 3, posts: 2 });
const db = new Database(sqliteFilePath(url));
console.log(db.prepare('select * from Post limit 2').all());
console.log(db.prepare('select typeof(publishedAt), typeof(createdAt) from Post limit 2').all());
console.log(url);
