/** The routing decorators this application uses, in one place. */
export { Controller, Get, Version } from 'resource-service';
