-- CreateTable
CREATE TABLE "Book" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shelfId" TEXT NOT NULL,
    "curatorId" TEXT NOT NULL,
    "heading" TEXT NOT NULL,
    "lent" BOOLEAN NOT NULL,
    CONSTRAINT "Book_shelfId_fkey" FOREIGN KEY ("shelfId") REFERENCES "Shelf" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Shelf" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "label" TEXT NOT NULL,
    "curatorId" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "Book_shelfId_id_idx" ON "Book"("shelfId", "id");
