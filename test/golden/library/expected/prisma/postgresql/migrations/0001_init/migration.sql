-- CreateTable
CREATE TABLE "Book" (
    "id" UUID NOT NULL,
    "shelfId" UUID NOT NULL,
    "curatorId" TEXT NOT NULL,
    "heading" TEXT NOT NULL,
    "lent" BOOLEAN NOT NULL,

    CONSTRAINT "Book_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Shelf" (
    "id" UUID NOT NULL,
    "label" TEXT NOT NULL,
    "curatorId" TEXT NOT NULL,

    CONSTRAINT "Shelf_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Book_shelfId_id_idx" ON "Book"("shelfId", "id");

-- AddForeignKey
ALTER TABLE "Book" ADD CONSTRAINT "Book_shelfId_fkey" FOREIGN KEY ("shelfId") REFERENCES "Shelf"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
