/** Action names, as the reference writes them (a slash is allowed). */
export const ACTION_NAME = /^[a-zA-Z0-9][a-zA-Z0-9\-_.~/]*$/;
/** Environment names an environment action may list (the flow-name rule). */
export const ENVIRONMENT_NAME = /^[a-zA-Z0-9][a-zA-Z0-9\-_.~]*$/;
