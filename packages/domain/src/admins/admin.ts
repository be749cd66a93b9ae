/** The administrator who manages users through the admin API and panel. */
export interface Admin {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly created: Date;
  readonly updated: Date;
}

/** The credentials an operator keeps in the admin key file. */
export interface AdminCredentials {
  email: string;
  password: string;
  name?: string;
}
