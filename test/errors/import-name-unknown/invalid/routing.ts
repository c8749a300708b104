/** The routing decorators this application uses, in one place (Version is left out by mistake). */
export { Controller, Get } from 'resource-service';
