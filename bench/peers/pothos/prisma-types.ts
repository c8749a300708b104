/* eslint-disable */
import type {
  Prisma,
  AuditRecord,
  Comment,
  Digest,
  Notification,
  Org,
  Post,
  User,
} from '../../../generated/prisma/sqlite/client/client.js';
import type { PothosPrismaDatamodel } from '@pothos/plugin-prisma';
export default interface PrismaTypes {
  AuditRecord: {
    Name: 'AuditRecord';
    Shape: AuditRecord;
    Include: Prisma.AuditRecordInclude;
    Select: Prisma.AuditRecordSelect;
    OrderBy: Prisma.AuditRecordOrderByWithRelationInput;
    WhereUnique: Prisma.AuditRecordWhereUniqueInput;
    Where: Prisma.AuditRecordWhereInput;
    Create: {};
    Update: {};
    RelationName: 'org';
    ListRelations: never;
    Relations: {
      org: {
        Shape: Org;
        Name: 'Org';
        Nullable: false;
      };
    };
  };
  Comment: {
    Name: 'Comment';
    Shape: Comment;
    Include: Prisma.CommentInclude;
    Select: Prisma.CommentSelect;
    OrderBy: Prisma.CommentOrderByWithRelationInput;
    WhereUnique: Prisma.CommentWhereUniqueInput;
    Where: Prisma.CommentWhereInput;
    Create: {};
    Update: {};
    RelationName: 'post';
    ListRelations: never;
    Relations: {
      post: {
        Shape: Post;
        Name: 'Post';
        Nullable: false;
      };
    };
  };
  Digest: {
    Name: 'Digest';
    Shape: Digest;
    Include: Prisma.DigestInclude;
    Select: Prisma.DigestSelect;
    OrderBy: Prisma.DigestOrderByWithRelationInput;
    WhereUnique: Prisma.DigestWhereUniqueInput;
    Where: Prisma.DigestWhereInput;
    Create: {};
    Update: {};
    RelationName: 'org';
    ListRelations: never;
    Relations: {
      org: {
        Shape: Org;
        Name: 'Org';
        Nullable: false;
      };
    };
  };
  Notification: {
    Name: 'Notification';
    Shape: Notification;
    Include: Prisma.NotificationInclude;
    Select: Prisma.NotificationSelect;
    OrderBy: Prisma.NotificationOrderByWithRelationInput;
    WhereUnique: Prisma.NotificationWhereUniqueInput;
    Where: Prisma.NotificationWhereInput;
    Create: {};
    Update: {};
    RelationName: 'org' | 'user' | 'post';
    ListRelations: never;
    Relations: {
      org: {
        Shape: Org;
        Name: 'Org';
        Nullable: false;
      };
      user: {
        Shape: User;
        Name: 'User';
        Nullable: false;
      };
      post: {
        Shape: Post;
        Name: 'Post';
        Nullable: false;
      };
    };
  };
  Org: {
    Name: 'Org';
    Shape: Org;
    Include: Prisma.OrgInclude;
    Select: Prisma.OrgSelect;
    OrderBy: Prisma.OrgOrderByWithRelationInput;
    WhereUnique: Prisma.OrgWhereUniqueInput;
    Where: Prisma.OrgWhereInput;
    Create: {};
    Update: {};
    RelationName: 'auditRecordOrgInverse' | 'digestOrgInverse' | 'notificationOrgInverse' | 'postOrgInverse' | 'users';
    ListRelations: 'auditRecordOrgInverse' | 'digestOrgInverse' | 'notificationOrgInverse' | 'postOrgInverse' | 'users';
    Relations: {
      auditRecordOrgInverse: {
        Shape: AuditRecord[];
        Name: 'AuditRecord';
        Nullable: false;
      };
      digestOrgInverse: {
        Shape: Digest[];
        Name: 'Digest';
        Nullable: false;
      };
      notificationOrgInverse: {
        Shape: Notification[];
        Name: 'Notification';
        Nullable: false;
      };
      postOrgInverse: {
        Shape: Post[];
        Name: 'Post';
        Nullable: false;
      };
      users: {
        Shape: User[];
        Name: 'User';
        Nullable: false;
      };
    };
  };
  Post: {
    Name: 'Post';
    Shape: Post;
    Include: Prisma.PostInclude;
    Select: Prisma.PostSelect;
    OrderBy: Prisma.PostOrderByWithRelationInput;
    WhereUnique: Prisma.PostWhereUniqueInput;
    Where: Prisma.PostWhereInput;
    Create: {};
    Update: {};
    RelationName: 'org' | 'author' | 'reviewer' | 'commentPostInverse' | 'notificationPostInverse';
    ListRelations: 'commentPostInverse' | 'notificationPostInverse';
    Relations: {
      org: {
        Shape: Org;
        Name: 'Org';
        Nullable: false;
      };
      author: {
        Shape: User;
        Name: 'User';
        Nullable: false;
      };
      reviewer: {
        Shape: User | null;
        Name: 'User';
        Nullable: true;
      };
      commentPostInverse: {
        Shape: Comment[];
        Name: 'Comment';
        Nullable: false;
      };
      notificationPostInverse: {
        Shape: Notification[];
        Name: 'Notification';
        Nullable: false;
      };
    };
  };
  User: {
    Name: 'User';
    Shape: User;
    Include: Prisma.UserInclude;
    Select: Prisma.UserSelect;
    OrderBy: Prisma.UserOrderByWithRelationInput;
    WhereUnique: Prisma.UserWhereUniqueInput;
    Where: Prisma.UserWhereInput;
    Create: {};
    Update: {};
    RelationName: 'org' | 'notificationUserInverse' | 'posts' | 'reviews';
    ListRelations: 'notificationUserInverse' | 'posts' | 'reviews';
    Relations: {
      org: {
        Shape: Org;
        Name: 'Org';
        Nullable: false;
      };
      notificationUserInverse: {
        Shape: Notification[];
        Name: 'Notification';
        Nullable: false;
      };
      posts: {
        Shape: Post[];
        Name: 'Post';
        Nullable: false;
      };
      reviews: {
        Shape: Post[];
        Name: 'Post';
        Nullable: false;
      };
    };
  };
}
export function getDatamodel(): PothosPrismaDatamodel {
  return JSON.parse(
    '{"datamodel":{"models":{"AuditRecord":{"fields":[{"type":"String","kind":"scalar","name":"id","isRequired":true,"isList":false,"hasDefaultValue":true,"isUnique":false,"isId":true,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"orgId","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"action","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"subjectId","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"userId","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"summary","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"DateTime","kind":"scalar","name":"createdAt","isRequired":true,"isList":false,"hasDefaultValue":true,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"Org","kind":"object","name":"org","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"relationName":"AuditRecordOrg","relationFromFields":["orgId"],"isUpdatedAt":false}],"primaryKey":null,"uniqueIndexes":[]},"Comment":{"fields":[{"type":"String","kind":"scalar","name":"id","isRequired":true,"isList":false,"hasDefaultValue":true,"isUnique":false,"isId":true,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"orgId","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"postId","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"authorId","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"body","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"DateTime","kind":"scalar","name":"createdAt","isRequired":true,"isList":false,"hasDefaultValue":true,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"Post","kind":"object","name":"post","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"relationName":"CommentPost","relationFromFields":["postId"],"isUpdatedAt":false}],"primaryKey":null,"uniqueIndexes":[]},"Digest":{"fields":[{"type":"String","kind":"scalar","name":"id","isRequired":true,"isList":false,"hasDefaultValue":true,"isUnique":false,"isId":true,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"orgId","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"DateTime","kind":"scalar","name":"periodStart","isRequired":false,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"DateTime","kind":"scalar","name":"periodEnd","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"Int","kind":"scalar","name":"publishedPosts","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"DateTime","kind":"scalar","name":"createdAt","isRequired":true,"isList":false,"hasDefaultValue":true,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"Org","kind":"object","name":"org","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"relationName":"DigestOrg","relationFromFields":["orgId"],"isUpdatedAt":false}],"primaryKey":null,"uniqueIndexes":[]},"Notification":{"fields":[{"type":"String","kind":"scalar","name":"id","isRequired":true,"isList":false,"hasDefaultValue":true,"isUnique":false,"isId":true,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"orgId","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"userId","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"postId","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"message","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"DateTime","kind":"scalar","name":"createdAt","isRequired":true,"isList":false,"hasDefaultValue":true,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"Org","kind":"object","name":"org","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"relationName":"NotificationOrg","relationFromFields":["orgId"],"isUpdatedAt":false},{"type":"User","kind":"object","name":"user","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"relationName":"NotificationUser","relationFromFields":["userId"],"isUpdatedAt":false},{"type":"Post","kind":"object","name":"post","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"relationName":"NotificationPost","relationFromFields":["postId"],"isUpdatedAt":false}],"primaryKey":null,"uniqueIndexes":[{"name":null,"fields":["postId","userId"]}]},"Org":{"fields":[{"type":"String","kind":"scalar","name":"id","isRequired":true,"isList":false,"hasDefaultValue":true,"isUnique":false,"isId":true,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"name","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"AuditRecord","kind":"object","name":"auditRecordOrgInverse","isRequired":true,"isList":true,"hasDefaultValue":false,"isUnique":false,"isId":false,"relationName":"AuditRecordOrg","relationFromFields":[],"isUpdatedAt":false},{"type":"Digest","kind":"object","name":"digestOrgInverse","isRequired":true,"isList":true,"hasDefaultValue":false,"isUnique":false,"isId":false,"relationName":"DigestOrg","relationFromFields":[],"isUpdatedAt":false},{"type":"Notification","kind":"object","name":"notificationOrgInverse","isRequired":true,"isList":true,"hasDefaultValue":false,"isUnique":false,"isId":false,"relationName":"NotificationOrg","relationFromFields":[],"isUpdatedAt":false},{"type":"Post","kind":"object","name":"postOrgInverse","isRequired":true,"isList":true,"hasDefaultValue":false,"isUnique":false,"isId":false,"relationName":"PostOrg","relationFromFields":[],"isUpdatedAt":false},{"type":"User","kind":"object","name":"users","isRequired":true,"isList":true,"hasDefaultValue":false,"isUnique":false,"isId":false,"relationName":"UserOrg","relationFromFields":[],"isUpdatedAt":false}],"primaryKey":null,"uniqueIndexes":[]},"Post":{"fields":[{"type":"String","kind":"scalar","name":"id","isRequired":true,"isList":false,"hasDefaultValue":true,"isUnique":false,"isId":true,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"orgId","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"authorId","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"reviewerId","isRequired":false,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"title","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"body","isRequired":true,"isList":false,"hasDefaultValue":true,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"PostStatus","kind":"enum","name":"status","isRequired":true,"isList":false,"hasDefaultValue":true,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"DateTime","kind":"scalar","name":"publishedAt","isRequired":false,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"DateTime","kind":"scalar","name":"createdAt","isRequired":true,"isList":false,"hasDefaultValue":true,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"Org","kind":"object","name":"org","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"relationName":"PostOrg","relationFromFields":["orgId"],"isUpdatedAt":false},{"type":"User","kind":"object","name":"author","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"relationName":"PostAuthor","relationFromFields":["authorId"],"isUpdatedAt":false},{"type":"User","kind":"object","name":"reviewer","isRequired":false,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"relationName":"PostReviewer","relationFromFields":["reviewerId"],"isUpdatedAt":false},{"type":"Comment","kind":"object","name":"commentPostInverse","isRequired":true,"isList":true,"hasDefaultValue":false,"isUnique":false,"isId":false,"relationName":"CommentPost","relationFromFields":[],"isUpdatedAt":false},{"type":"Notification","kind":"object","name":"notificationPostInverse","isRequired":true,"isList":true,"hasDefaultValue":false,"isUnique":false,"isId":false,"relationName":"NotificationPost","relationFromFields":[],"isUpdatedAt":false}],"primaryKey":null,"uniqueIndexes":[]},"User":{"fields":[{"type":"String","kind":"scalar","name":"id","isRequired":true,"isList":false,"hasDefaultValue":true,"isUnique":false,"isId":true,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"orgId","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"name","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"String","kind":"scalar","name":"email","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"isUpdatedAt":false},{"type":"Org","kind":"object","name":"org","isRequired":true,"isList":false,"hasDefaultValue":false,"isUnique":false,"isId":false,"relationName":"UserOrg","relationFromFields":["orgId"],"isUpdatedAt":false},{"type":"Notification","kind":"object","name":"notificationUserInverse","isRequired":true,"isList":true,"hasDefaultValue":false,"isUnique":false,"isId":false,"relationName":"NotificationUser","relationFromFields":[],"isUpdatedAt":false},{"type":"Post","kind":"object","name":"posts","isRequired":true,"isList":true,"hasDefaultValue":false,"isUnique":false,"isId":false,"relationName":"PostAuthor","relationFromFields":[],"isUpdatedAt":false},{"type":"Post","kind":"object","name":"reviews","isRequired":true,"isList":true,"hasDefaultValue":false,"isUnique":false,"isId":false,"relationName":"PostReviewer","relationFromFields":[],"isUpdatedAt":false}],"primaryKey":null,"uniqueIndexes":[{"name":null,"fields":["orgId","email"]}]}}}}',
  );
}
